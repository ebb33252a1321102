"""Appliances, outstanding balances and renewals synced from Buildium answer the tenant tools
(`get_unit_appliances`, `get_balance`, `respond_to_renewal`) through the real dispatcher; a second
sync writes nothing and a tenant's answer to a renewal is kept."""
from __future__ import annotations

import json

from actors.dispatcher.dispatcher import Dispatcher
from gateway.pms.buildium.sync import sync
from spine.toolspec import ToolInvocation
from tools.caller import load_caller

DANA, ALDER_COURT = "p_buildium_tenant-5001", "prop_buildium_rental-101"


async def _tool(spine, name: str, args: dict) -> dict:
    caller = await load_caller(spine, DANA, ALDER_COURT, f"ix-{name}")
    result = await Dispatcher(spine).run(ToolInvocation(name=name, input=args, tool_use_id=f"tu-{name}"), caller)
    assert not result.is_error, result.content
    return json.loads(result.content)


async def test_the_tenant_tools_answer_from_buildium(synced, client, stub):
    assert (await _tool(synced, "get_balance", {}))["balance_usd"] == 125.5
    appliances = (await _tool(synced, "get_unit_appliances", {}))["appliances"]
    assert [(a["kind"], a["brand"], a["model"]) for a in appliances] == [("Dishwasher", "Bosch", "SHX78"),
                                                                          ("Range", "GE", "JB645")]
    answer = await _tool(synced, "respond_to_renewal", {"decision": "accept", "term_months": 12})
    assert answer["status"] == "accepted" and answer["monthly_rent_usd"] == 1925
    stub.account.balances.clear()  # paid in Buildium
    again = await sync(synced, client, organization="org_buildium", full=True)
    assert again.report.writes == 1  # the lease's balance only: the renewal keeps Dana's answer
    assert (await _tool(synced, "get_balance", {}))["balance_usd"] == 0
    assert (await synced.get_renewal("ren_buildium_3101")).status == "accepted"
    assert (await sync(synced, client, organization="org_buildium", full=True)).report.writes == 0
