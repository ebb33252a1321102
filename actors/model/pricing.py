"""What a model call cost, by the ADR's price model ("Cost model + observability").

Prices are per million tokens. Prompt-cache writes bill at 1.25x the input price and cache reads
at 0.1x; `input_tokens` is only the uncached part after the last cache breakpoint, so the four
usage counters never overlap and are simply summed at their rates.
"""
from __future__ import annotations

import logging

from pydantic import BaseModel

from spine.records import Usage

log = logging.getLogger(__name__)

CACHE_WRITE_MULTIPLIER = 1.25
CACHE_READ_MULTIPLIER = 0.1
PER_MILLION = 1_000_000


class Price(BaseModel):
    input_usd_per_mtok: float
    output_usd_per_mtok: float


# Keyed by model family: the API answers with dated ids ("claude-sonnet-4-6-2026...").
PRICES: dict[str, Price] = {
    "claude-sonnet-4": Price(input_usd_per_mtok=3.0, output_usd_per_mtok=15.0),
    "claude-haiku-4": Price(input_usd_per_mtok=1.0, output_usd_per_mtok=5.0),
}
FREE_MODELS = ("offline",)  # the deterministic offline policy costs nothing

_warned: set[str] = set()


def price_for(model: str) -> Price | None:
    """The price of a model id, or None for the free offline policy and unknown ids."""
    for family, price in PRICES.items():
        if model.startswith(family):
            return price
    return None


def cost_usd(model: str, usage: Usage) -> float:
    """Dollar cost of one response. Unknown models cost 0.0 and are logged once, because a
    trace must never fail over its price tag."""
    price = price_for(model)
    if price is None:
        if not model.startswith(FREE_MODELS) and model not in _warned:
            _warned.add(model)
            log.warning("no price for model %r; counting it as free", model)
        return 0.0
    per_input = price.input_usd_per_mtok / PER_MILLION
    return (
        usage.input_tokens * per_input
        + usage.cache_creation_input_tokens * per_input * CACHE_WRITE_MULTIPLIER
        + usage.cache_read_input_tokens * per_input * CACHE_READ_MULTIPLIER
        + usage.output_tokens * price.output_usd_per_mtok / PER_MILLION
    )
