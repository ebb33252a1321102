"""The ADR price model, checked against hand-computed figures."""
from __future__ import annotations

import pytest

from actors.model.pricing import cost_usd, price_for
from spine.records import Usage


def test_sonnet_turn_at_the_adr_cache_hit_rate():
    # ADR "Cost model": 4000 cached input tokens x $0.0000003 = $0.0012, 1000 uncached x $0.000003
    # = $0.003, 500 output x $0.000015 = $0.0075 -> $0.0117 per turn.
    usage = Usage(input_tokens=1000, cache_read_input_tokens=4000, output_tokens=500)
    assert cost_usd("claude-sonnet-4-6", usage) == pytest.approx(0.0117)


def test_cache_writes_bill_at_one_and_a_quarter_input():
    # 2000 written x $3/M x 1.25 = $0.0075; 100 input x $3/M = $0.0003; 50 out x $15/M = $0.00075
    usage = Usage(input_tokens=100, cache_creation_input_tokens=2000, output_tokens=50)
    assert cost_usd("claude-sonnet-4-6", usage) == pytest.approx(0.00855)


def test_haiku_prices_and_dated_ids():
    # 1000 in x $1/M = $0.001; 10000 read x $0.1/M = $0.001; 4000 written x $1.25/M = $0.005;
    # 200 out x $5/M = $0.001
    usage = Usage(input_tokens=1000, cache_read_input_tokens=10_000, cache_creation_input_tokens=4000,
                  output_tokens=200)
    assert cost_usd("claude-haiku-4-5", usage) == pytest.approx(0.008)
    assert cost_usd("claude-haiku-4-5-20251001", usage) == pytest.approx(0.008)


def test_offline_and_unknown_models_are_free():
    usage = Usage(input_tokens=1_000_000, output_tokens=1_000_000)
    assert cost_usd("offline-rules", usage) == 0.0
    assert cost_usd("some-other-model", usage) == 0.0
    assert price_for("offline-rules") is None
    assert cost_usd("claude-sonnet-4-6", usage) == pytest.approx(18.0)
