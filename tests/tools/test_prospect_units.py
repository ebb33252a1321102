"""Prospect tools see only units that are available (issue 13, finding 7): an occupied unit (204,
Marcus's) cannot be priced or toured, and is refused exactly like a unit that does not exist."""
from __future__ import annotations

import json

from spine.toolspec import ToolInvocation
from tools.dispatch import dispatch


async def _call(spine, caller, tool: str, **input) -> tuple[bool, dict | str]:
    result = await dispatch(spine, ToolInvocation(name=tool, input=input, tool_use_id=f"tu_{tool}_{input}"), caller)
    try:
        return result.is_error, json.loads(result.content)
    except ValueError:
        return result.is_error, result.content


async def test_an_occupied_unit_has_no_price_for_a_prospect(spine, callers):
    failed, said = await _call(spine, callers["prospect"], "get_pricing_details", unit="204")
    assert failed and "2450" not in str(said)
    _, missing = await _call(spine, callers["prospect"], "get_pricing_details", unit="999")
    assert str(said).replace("204", "999") == str(missing)
    ok, priced = await _call(spine, callers["prospect"], "get_pricing_details", unit="401")
    assert not ok and [u["monthly_rent_usd"] for u in priced["units"]] == [2695]


async def test_an_occupied_unit_cannot_be_toured(spine, callers):
    failed, _ = await _call(spine, callers["prospect"], "schedule_tour", when="2031-01-10T14:00:00", unit="204")
    assert failed and await spine.tours_of("p_prospect_9876") == []


async def test_listings_and_prices_never_show_an_occupied_unit(spine, callers):
    occupied = {"204", "110", "312", "305"}
    _, listed = await _call(spine, callers["prospect"], "get_available_units")
    _, priced = await _call(spine, callers["prospect"], "get_pricing_details", bedrooms=2)
    assert listed["units"] and not occupied & {u["unit"] for u in listed["units"]}
    assert priced["units"] and not occupied & {u["unit"] for u in priced["units"]}
