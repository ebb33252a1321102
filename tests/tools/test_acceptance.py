"""Issue 4's "done when" cases, each spelled out with the refusal an operator would read."""
from __future__ import annotations

from tools.caller import Caller
from tools.catalog import catalog_for
from tools.gate import authorize
from tools.matrix import TOOL_ROLE_MATRIX


def names(caller) -> list[str]:
    return [spec.name for spec in catalog_for(caller)]


async def test_viewer_sees_no_mutation_tool(callers):
    offered = names(callers["sam"])
    assert {"pm_lookup_person", "pm_list_open_work_orders"} <= set(offered)
    assert [n for n in offered if not TOOL_ROLE_MATRIX[n].read_only] == ["escalate_to_human"]


async def test_leasing_agent_sees_no_vendor_dispatch_tool(callers):
    offered = set(names(callers["lena"]))
    assert not offered & {n for n, p in TOOL_ROLE_MATRIX.items() if p.catalog == "vendor"}
    assert "pm_assign_vendor" not in offered and "pm_send_renewal" in offered


async def test_roommate_creates_work_order_for_204_but_no_renewal_or_balance(spine, callers):
    jordan = callers["jordan"]
    assert (await authorize(spine, jordan, "create_work_order", {"description": "leak", "unit": "204"})).allowed
    renewal = await authorize(spine, jordan, "respond_to_renewal", {"decision": "accept"})
    assert renewal.reason == "scope own-unit-primary: p_jordan is roommate of unit 204, not primary"
    assert renewal.rule == "scope:own-unit-primary"
    balance = await authorize(spine, jordan, "get_balance", {})
    assert not balance.allowed and balance.rule == "scope:own-unit-financially-responsible"
    # A scope she can never pass is not offered; the gate still refuses a call that slips through.
    assert not {"respond_to_renewal", "get_balance"} & set(names(jordan))
    assert {"respond_to_renewal", "get_balance"} <= set(names(callers["marcus"]))


async def test_guarantor_sees_balance_but_cannot_respond_to_renewal(spine, callers):
    ellen = callers["ellen"]
    assert (await authorize(spine, ellen, "get_balance", {})).allowed
    assert (await authorize(spine, ellen, "create_work_order", {"description": "x"})).allowed  # an occupant
    refused = await authorize(spine, ellen, "respond_to_renewal", {"decision": "decline"})
    assert refused.reason == "scope own-unit-primary: p_ellen is guarantor of unit 204, not primary"
    assert "get_balance" in set(names(ellen)) and "respond_to_renewal" not in set(names(ellen))


async def test_carlos_updates_wo42_and_files_for_110_not_204(spine, callers):
    carlos = callers["carlos"]
    assert (await authorize(spine, carlos, "update_work_order", {"work_order_id": "WO-42", "note": "on it"})).allowed
    assert (await authorize(spine, carlos, "create_work_order", {"description": "x", "unit": "110"})).allowed
    refused = await authorize(spine, carlos, "create_work_order", {"description": "x", "unit": "204"})
    assert refused.reason == "scope own-unit-occupant: p_carlos does not occupy unit 204"


async def test_mike_cannot_touch_wo42(spine, callers):
    for tool in ("update_work_order", "get_dispatch_details", "accept_dispatch"):
        refused = await authorize(spine, callers["mike"], tool, {"work_order_id": "WO-42"})
        assert refused.reason == "scope assigned-wo: p_mike is not a contact of v_carlos, the vendor assigned to WO-42"


async def test_carlos_at_capitol_is_only_a_vendor(spine, callers):
    carlos = callers["carlos@capitol"]
    assert (await authorize(spine, carlos, "get_dispatch_details", {"work_order_id": "WO-51"})).allowed
    assert (await authorize(spine, carlos, "update_work_order", {"work_order_id": "WO-51", "eta": "2pm"})).allowed
    tenant_tools = {n for n, p in TOOL_ROLE_MATRIX.items() if p.catalog == "tenant"}
    assert tenant_tools.isdisjoint(names(carlos))
    refused = await authorize(spine, carlos, "create_work_order", {"description": "x", "unit": "110"})
    assert refused.reason == "role: create_work_order needs tenant"
    # One org's line never acts on another org's work order, even for the assigned vendor.
    cross = await authorize(spine, carlos, "get_dispatch_details", {"work_order_id": "WO-42"})
    assert cross.rule == "scope:assigned-wo" and "org_propflow" in cross.reason


async def test_unknown_caller_gets_facility_and_escalation_only(spine, callers):
    other = callers["other"]
    facility = sorted(n for n, p in TOOL_ROLE_MATRIX.items() if p.catalog == "facility")
    assert names(other) == facility + ["escalate_to_human"]
    assert (await authorize(spine, other, "escalate_to_human", {"reason": "help"})).allowed


async def test_unknown_tool_is_refused_by_rule_unknown_tool(spine, callers):
    decision = await authorize(spine, callers["priya"], "drop_table", {})
    assert (decision.allowed, decision.rule) == (False, "unknown-tool")


async def test_claimed_roles_are_not_trusted(spine, callers):
    """A Caller that arrives over the wire carrying someone else's roles carries none: it names
    who and where, and the gate derives the rest from the store."""
    wire = {**callers["other"].model_dump(mode="json"),
            "roles": [r.model_dump(mode="json") for r in callers["priya"].derived().roles]}
    forged = Caller.model_validate(wire)
    assert forged.derived() is None and "roles" not in forged.model_dump()
    decision = await authorize(spine, forged, "pm_list_open_work_orders", {})
    assert decision.rule == "role"


async def test_deceased_tenant_has_no_authority(spine):
    from tools.caller import load_caller
    ruth = await load_caller(spine, "p_ruth", "pf_yale", "i-ruth")
    assert (await ruth.facts(spine)).role_types == frozenset() and ruth.derived().roles  # rows exist, no authority
    assert (await authorize(spine, ruth, "get_lease_details", {"unit": "305"})).rule == "role"


async def test_roles_changed_in_place_after_loading_are_not_trusted(spine):
    """The gate decides on the facts derived with the roles, not on the role list edited since."""
    from tools.caller import load_caller
    jordan = await load_caller(spine, "p_jordan", "pf_yale", "i-forged")
    priya = await load_caller(spine, "p_priya", "pf_yale", "i-priya")
    jordan.derived().roles.append(priya.derived().roles[0])
    assert (await authorize(spine, jordan, "pm_list_open_work_orders", {})).rule == "role"
    untouched = await load_caller(spine, "p_priya", "pf_yale", "i-priya-2")
    assert (await authorize(spine, untouched, "pm_list_open_work_orders", {})).allowed
