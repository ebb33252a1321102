"""A staff role scoped to one property acts on that property's records only (issue 13, finding 1):
Nora (pm of pf_beacon only) texting Beacon Hill's line cannot list, look up or close anything of
pf_yale, though it is the same org; Priya's org-wide pm role reaches both."""
from __future__ import annotations

import json

from spine.repo import Spine
from spine.toolspec import ToolInvocation
from tools.caller import load_caller
from tools.dispatch import dispatch


def call(tool: str, **input) -> ToolInvocation:
    return ToolInvocation(name=tool, input=input, tool_use_id=f"tu_{tool}")


async def _as(spine: Spine, person_id: str, property_id: str, tag: str):
    return await load_caller(spine, person_id, property_id, f"int-{tag}")


async def test_nora_lists_only_beacon_and_cannot_name_yale(spine):
    nora = await _as(spine, "p_nora", "pf_beacon", "nora-list")
    listed = await dispatch(spine, call("pm_list_open_work_orders"), nora)
    assert [w["work_order_id"] for w in json.loads(listed.content)["work_orders"]] == ["WO-90"]
    refused = await dispatch(spine, call("pm_list_open_work_orders", property_id="pf_yale"), nora)
    assert refused.decision == "refused" and refused.rule == "scope:org-wide"
    assert "reaches only pf_beacon" in refused.reason  # the full story stays in the trace


async def test_nora_cannot_close_a_yale_work_order_but_priya_can_from_beacon(spine):
    nora = await _as(spine, "p_nora", "pf_beacon", "nora-close")
    refused = await dispatch(spine, call("pm_close_work_order", work_order_id="WO-7"), nora)
    assert refused.is_error and refused.rule == "scope:org-wide"
    assert (await spine.get_work_order("wo_7")).status == "in_progress"  # the handler never ran
    closed = await dispatch(spine, call("pm_close_work_order", work_order_id="WO-90"), nora)
    assert not closed.is_error and (await spine.get_work_order("wo_90")).status == "closed"
    priya = await _as(spine, "p_priya", "pf_beacon", "priya-close")
    assert not (await dispatch(spine, call("pm_close_work_order", work_order_id="WO-7"), priya)).is_error


async def test_nora_cannot_create_assign_or_renew_at_yale(spine):
    nora = await _as(spine, "p_nora", "pf_beacon", "nora-write")
    before = len(await spine.work_orders_at("pf_yale"))
    for inv in (call("pm_create_work_order", unit="204", description="x", property_id="pf_yale"),
                call("pm_assign_vendor", work_order_id="WO-42", vendor_id="v_sparks"),
                call("pm_send_renewal", unit="204", term_months=12, monthly_rent_usd=2600)):
        assert (await dispatch(spine, inv, nora)).decision == "refused", inv.name
    assert len(await spine.work_orders_at("pf_yale")) == before
    assert (await spine.get_work_order("wo_42")).assigned_vendor_id == "v_carlos"


async def test_lookups_see_only_the_people_of_the_roles_reach(spine):
    nora = await _as(spine, "p_nora", "pf_beacon", "nora-lookup")
    priya = await _as(spine, "p_priya", "pf_beacon", "priya-lookup")
    found = json.loads((await dispatch(spine, call("pm_lookup_person", name="Marcus"), nora)).content)
    assert found["matches"] == []
    by_phone = json.loads((await dispatch(spine, call("pm_lookup_person", phone="+12065551001"), nora)).content)
    assert by_phone["matches"] == []
    found = json.loads((await dispatch(spine, call("pm_lookup_person", name="Marcus"), priya)).content)
    assert [m["person_id"] for m in found["matches"]] == ["p_marcus"]


async def test_nora_has_no_authority_on_yales_line(spine):
    nora = await _as(spine, "p_nora", "pf_yale", "nora-yale")
    assert (await nora.facts(spine)).role_types == frozenset()
    result = await dispatch(spine, call("pm_list_open_work_orders"), nora)
    assert result.rule == "role"
