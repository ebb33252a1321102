"""bench/metrics_scrape.py reads Prometheus text as Ray exports it: Ray's capitalised process
labels are summed over, the gateway's own labels are kept whole."""
from __future__ import annotations

from bench.metrics_scrape import gateway_series

PAGE = """\
# HELP ray_clara_inbound_messages_total Inbound messages by channel and outcome
# TYPE ray_clara_inbound_messages_total counter
ray_clara_inbound_messages_total{Component="core_worker",NodeAddress="127.0.0.1",SessionName="s_1",Version="2.60.0",WorkerId="ab",application="clara",channel="sms",deployment="GatewayIngress",outcome="answered",replica="r1"} 3.0
ray_clara_inbound_messages_total{Component="core_worker",NodeAddress="127.0.0.1",SessionName="s_1",Version="2.60.0",WorkerId="cd",application="clara",channel="sms",deployment="GatewayIngress",outcome="answered",replica="r1"} 2.0
ray_clara_tool_calls_total{Component="core_worker",WorkerId="ef",tool="get_property_hours",decision="allowed",reason="say \\"hi\\", ok"} 4.0
ray_clara_turn_latency_ms_bucket{Component="core_worker",channel="sms",le="100.0"} 5.0
ray_clara_outbox_depth{Component="core_worker"} 0.0
"""


def test_ray_process_labels_are_summed_and_the_gateway_labels_kept():
    series = gateway_series(PAGE)
    assert series == {
        "ray_clara_inbound_messages_total{application=clara,channel=sms,deployment=GatewayIngress,"
        "outcome=answered,replica=r1}": 5.0,
        'ray_clara_tool_calls_total{decision=allowed,reason=say \\"hi\\", ok,tool=get_property_hours}': 4.0,
    }
