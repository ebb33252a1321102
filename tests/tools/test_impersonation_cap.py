"""The gate caps an impersonated call by the impersonator (issue 28, finding 3): a Caller with
`impersonated_by` is decided for the person spoken as AND for the impersonating staff Person,
both derived from the store, and an org-wide listing shows only what both reach. Whatever Ask
Clara lets through, the gate alone holds this line."""
from __future__ import annotations

import json

from spine.repo import Spine
from spine.toolspec import ToolInvocation
from tools.caller import load_caller
from tools.dispatch import dispatch


def call(tool: str, **input) -> ToolInvocation:
    return ToolInvocation(name=tool, input=input, tool_use_id=f"tu_{tool}")


async def as_(spine: Spine, person_id: str, property_id: str, by: str | None, tag: str):
    return await load_caller(spine, person_id, property_id, f"int-{tag}", impersonated_by=by)


async def test_a_viewer_as_a_pm_closes_nothing(spine):
    caller = await as_(spine, "p_priya", "pf_yale", "p_sam", "sam")
    refused = await dispatch(spine, call("pm_close_work_order", work_order_id="WO-7", resolution="fixed"), caller)
    assert refused.decision == "refused" and refused.rule == "impersonation:role"
    assert json.loads(refused.content)["refused"] == "impersonation"
    assert "p_sam, who is asking as this person, may not" in json.loads(refused.content)["error"]
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    listed = await dispatch(spine, call("pm_list_open_work_orders"), caller)  # a viewer may list
    assert listed.decision == "allowed"


async def test_a_property_scoped_pm_as_an_org_wide_pm_reaches_only_her_property(spine):
    caller = await as_(spine, "p_priya", "pf_beacon", "p_nora", "nora")
    uncapped = await as_(spine, "p_priya", "pf_beacon", None, "priya")
    listed = await dispatch(spine, call("pm_list_open_work_orders"), caller)
    assert [w["work_order_id"] for w in json.loads(listed.content)["work_orders"]] == ["WO-90"]
    yale = call("pm_list_open_work_orders", property_id="pf_yale")
    assert (await dispatch(spine, yale, uncapped)).decision == "allowed"
    refused = await dispatch(spine, yale, caller)
    assert refused.rule == "impersonation:scope:org-wide" and "reaches only pf_beacon" in refused.reason
    close = call("pm_close_work_order", work_order_id="WO-7", resolution="x")
    assert (await dispatch(spine, close, caller)).rule == "impersonation:scope:org-wide"
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    # An org-wide lookup shows only what both reach: Marcus lives at pf_yale.
    lookup = call("pm_lookup_person", name="Marcus")
    assert json.loads((await dispatch(spine, lookup, uncapped)).content)["matches"] != []
    assert json.loads((await dispatch(spine, lookup, caller)).content)["matches"] == []


async def test_a_leasing_agent_as_a_tenant_cannot_answer_his_renewal(spine):
    caller = await as_(spine, "p_marcus", "pf_yale", "p_lena", "lena")
    refused = await dispatch(spine, call("respond_to_renewal", decision="accept", term_months=12), caller)
    assert refused.rule == "impersonation:role"
    assert (await spine.get_renewal("rw_yale_204_2027")).status == "offered"
    # What both may call still runs, for the person spoken as.
    assert (await dispatch(spine, call("get_property_hours"), caller)).decision == "allowed"


async def test_the_operator_adds_no_cap(spine):
    caller = await as_(spine, "p_marcus", "pf_yale", "operator", "op")
    assert caller.impersonator() is None
    accepted = await dispatch(spine, call("respond_to_renewal", decision="accept", term_months=12), caller)
    assert accepted.decision == "allowed" and not accepted.is_error
