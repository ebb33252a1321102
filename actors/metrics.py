"""The gateway's own metrics, exported by Ray's metrics agent on the metrics export port.

Every metric is defined here (deploy/grafana/clara.json queries only these; a test checks it) and
recorded through the small functions below, called from the Serve replicas (inbound, outbox) and
from the PersonActor hosts (turns, tools, cache, leases). This module sits in `actors/`, the
lowest layer that runs under Ray, so both sides can import it.

In a Serve replica the metrics are `ray.serve.metrics` classes, which add the `deployment`,
`replica` and `application` tags; elsewhere (host processes) Ray's own `ray.util.metrics`, the
same metric without Serve's tags and without importing Serve. Prometheus sees each as
`ray_<name>` (counters with `_total`, histograms with `_bucket`/`_sum`/`_count`).

Labels are closed vocabularies (channel, outcome, tool name, decision, reason, role set, host
id): never a phone number, a name or a Person id.

Events (`clara.events`, spine.events.emit_event) are counted by `EventMetrics`, a logging
handler on that logger, so the code that emits an event needs no second call.
"""
from __future__ import annotations

import logging
import sys
from dataclasses import dataclass
from typing import Any

from spine.records import AgentTrace, EventKind
from spine.routing_types import MetaRole
from tools.matrix import TOOL_ROLE_MATRIX

_META_ROLES = frozenset(role.value for role in MetaRole)
LATENCY_MS_BUCKETS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000, 15000]


@dataclass(frozen=True)
class Spec:
    kind: str  # counter | histogram | gauge
    description: str
    tags: tuple[str, ...] = ()
    boundaries: tuple[float, ...] = ()


METRICS: dict[str, Spec] = {
    "clara_inbound_messages": Spec("counter", "Inbound messages by channel and outcome", ("channel", "outcome")),
    "clara_turn_latency_ms": Spec("histogram", "Agent turn latency (ms) by channel", ("channel",),
                                  tuple(LATENCY_MS_BUCKETS)),
    "clara_model_call_latency_ms": Spec("histogram", "Model time in a turn (ms) by channel", ("channel",),
                                        tuple(LATENCY_MS_BUCKETS)),
    "clara_tool_calls": Spec("counter", "Tool calls by tool and gate decision", ("tool", "decision")),
    "clara_prefetch": Spec("counter", "Speculative prefetch outcomes (hit, unused, refused, failed)", ("status",)),
    "clara_prompt_cache_tokens": Spec("counter", "Input tokens by role set: read from cache, written, uncached",
                                      ("role_set", "kind")),
    "clara_other_lane": Spec("counter", "Interactions routed to MetaRole 'other', by reason", ("reason",)),
    "clara_context_build_gaps": Spec("counter", "personContext build gaps by reason", ("reason",)),
    "clara_active_person_actors": Spec("gauge", "Active (warm) PersonActors on a host", ("host",)),
    "clara_lease_takeovers": Spec("counter", "Person leases taken over from another (lapsed) owner"),
    "clara_inbound_failures": Spec("counter", "Inbound messages failed durably (apology sent), by reason",
                                   ("channel", "reason")),
    "clara_abandoned_messages": Spec("counter", "Inbound messages found abandoned mid-turn by the sweep",
                                     ("channel",)),
    "clara_outbox_depth": Spec("gauge", "Replies waiting in the outbox (not yet accepted by the provider)"),
}

# Event kind (spine.records.EventKind and the gateway's own kinds) -> the metric that counts it.
EVENT_METRICS: dict[str, str] = {
    EventKind.GRACEFUL_DEGRADE: "clara_other_lane",
    EventKind.CONTEXT_BUILD: "clara_context_build_gaps",
    EventKind.INBOUND_FAILED: "clara_inbound_failures",
}

_made: dict[str, Any] = {}


def _metric(name: str) -> Any:
    metric = _made.get(name)
    if metric is None:
        spec = METRICS[name]
        if "ray.serve" in sys.modules:  # a Serve replica (or a process that imported Serve anyway)
            from ray.serve import metrics as classes
        else:
            from ray.util import metrics as classes  # type: ignore[no-redef]  # the same three classes, Serve-less
        options: dict[str, Any] = {"description": spec.description, "tag_keys": spec.tags}
        if spec.kind == "histogram":
            options["boundaries"] = list(spec.boundaries)
        metric = _made[name] = {"counter": classes.Counter, "histogram": classes.Histogram,
                                "gauge": classes.Gauge}[spec.kind](name, **options)
    return metric


def count(name: str, value: float = 1.0, **tags: str) -> None:
    _metric(name).inc(value, tags=tags or None)


def observe(name: str, value: float, **tags: str) -> None:
    _metric(name).observe(value, tags=tags or None)


def gauge(name: str, value: float, **tags: str) -> None:
    _metric(name).set(value, tags=tags or None)


def inbound(channel: str, outcome: str) -> None:
    count("clara_inbound_messages", channel=channel, outcome=outcome)


def record_turn(trace: AgentTrace) -> None:
    """Everything a finished turn's trace says: latency, tools, prefetch, prompt-cache tokens."""
    channel = str(trace.channel)
    observe("clara_turn_latency_ms", trace.latency_ms.total, channel=channel)
    if trace.latency_ms.model:
        observe("clara_model_call_latency_ms", trace.latency_ms.model, channel=channel)
    for call in trace.tool_calls:
        # The model names the tool: a name outside the catalog is one label, not a new series.
        tool = call.name if call.name in TOOL_ROLE_MATRIX else "unknown"
        count("clara_tool_calls", tool=tool, decision=call.decision)
    for prefetched in trace.prefetch:
        count("clara_prefetch", status=str(prefetched.status))
    roles = sorted(role for role in trace.routing.roles if role in _META_ROLES)
    usage, role_set = trace.usage, "+".join(roles) or "none"
    for kind, tokens in (("read", usage.cache_read_input_tokens), ("written", usage.cache_creation_input_tokens),
                         ("uncached", usage.input_tokens)):
        if tokens:
            count("clara_prompt_cache_tokens", float(tokens), role_set=role_set, kind=kind)


class EventMetrics(logging.Handler):
    """Counts the `clara.events` lines (spine.events.emit_event passes kind, reason, channel)."""

    def emit(self, record: logging.LogRecord) -> None:
        kind = getattr(record, "event_kind", None)
        name = EVENT_METRICS.get(kind or "")
        if name is None:
            return
        reason, channel = getattr(record, "event_reason", "") or "", getattr(record, "event_channel", "") or "none"
        try:
            if name == "clara_inbound_failures":
                count(name, channel=channel, reason=reason)
                if reason == "abandoned":
                    count("clara_abandoned_messages", channel=channel)
            else:
                count(name, reason=reason)
        except Exception:  # noqa: BLE001 - a metric must never take an event (or a reply) down
            self.handleError(record)


def count_events() -> None:
    """Install EventMetrics on `clara.events` in this process (idempotent)."""
    events = logging.getLogger("clara.events")
    if not any(isinstance(h, EventMetrics) for h in events.handlers):
        events.addHandler(EventMetrics())
