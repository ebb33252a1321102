"""Handlers do real work on the store; read-only tools return useful JSON."""
from __future__ import annotations

import itertools
import json

from spine.toolspec import ToolInvocation
from spine.work import RenewalStatus, WorkOrderStatus
from tools.dispatch import dispatch

_ids = itertools.count()


async def run(spine, caller, tool, /, **input) -> dict:
    result = await dispatch(spine, ToolInvocation(name=tool, input=input, tool_use_id=f"tu_{next(_ids)}"), caller)
    assert not result.is_error, result.content
    return json.loads(result.content)


async def test_create_work_order_writes_wo_n_from_the_sequence(spine, callers):
    out = await run(spine, callers["jordan"], "create_work_order", description="Dishwasher leaks onto the floor",
                    priority="urgent", access_notes="dog in the bedroom")
    wo = await spine.get_work_order("wo_" + out["work_order_id"].split("-")[1])
    assert out["work_order_id"] == "WO-801" and wo.display_id == "WO-801"  # the demo sequence stands at 800
    assert (wo.unit_id, wo.property_id, wo.priority, wo.created_by_person_id) == ("u_yale_204", "pf_yale", "urgent",
                                                                                   "p_jordan")
    assert wo.notes[0].text == "Access: dog in the bedroom"


async def test_eta_note_lands_on_the_work_order(spine, callers):
    await run(spine, callers["carlos"], "add_eta_note", work_order_id="WO-42", eta="tomorrow 9am", note="parts in")
    wo = await spine.get_work_order("wo_42")
    assert wo.eta == "tomorrow 9am" and wo.notes[-1].text == "ETA tomorrow 9am: parts in"


async def test_renewal_response_changes_the_workflow(spine, callers):
    out = await run(spine, callers["marcus"], "respond_to_renewal", decision="accept", term_months=6)
    workflow = await spine.get_renewal("rw_yale_204_2027")
    assert (workflow.status, workflow.chosen_term_months) == (RenewalStatus.ACCEPTED, 6)
    assert out["monthly_rent_usd"] == 2595


async def test_escalation_is_durable_and_visible_to_the_org(spine, callers):
    out = await run(spine, callers["other"], "escalate_to_human", reason="caller insists on a person",
                    urgency="urgent")
    [escalation] = await spine.escalations_for_org("org_propflow")
    assert escalation.id == out["escalation_id"] and escalation.person_id is None
    assert (escalation.urgency, escalation.property_id, escalation.interaction_id) == ("urgent", "pf_yale", "int-other")


async def test_rating_is_stored_once_work_is_completed(spine, callers):
    await run(spine, callers["mike"], "update_work_order", work_order_id="WO-7", status="completed", note="fixed")
    await run(spine, callers["ellen"], "submit_rating", work_order_id="WO-7", stars=4, comment="quick")
    wo = await spine.get_work_order("wo_7")
    assert (wo.status, wo.rating, wo.notes[-1].text) == (WorkOrderStatus.COMPLETED, 4, "Rating comment: quick")


async def test_prospect_tools_record_what_they_do(spine, callers):
    prospect = callers["prospect"]
    await run(spine, prospect, "save_prospect", bedrooms=2, budget_usd=2700)
    await run(spine, prospect, "save_prospect", move_in="2027-01-01", name="Dana Cruz")
    saved = await spine.get_prospect("p_prospect_9876", "pf_yale")
    assert (saved.bedrooms, saved.budget_usd, str(saved.move_in), saved.stage) == (2, 2700, "2027-01-01", "qualified")
    assert (await spine.get_person("p_prospect_9876")).display_name == "Dana Cruz"
    tour = await run(spine, prospect, "schedule_tour", when="2031-01-10T14:00:00", unit="401")
    [stored] = await spine.tours_of("p_prospect_9876")
    assert stored.id == tour["tour_id"] and stored.unit_id == "u_yale_401"
    assert tour["scheduled_at"].startswith("2031-01-10T14:00:00-08:00")  # property local time
    link = await run(spine, prospect, "send_application_link", email="dana@example.com")
    [recorded] = await spine.application_links_of("p_prospect_9876")
    assert recorded.url == link["url"] and link["url"].endswith(f"ref={recorded.id}")


async def test_tour_in_the_past_is_refused_by_the_handler(spine, callers):
    result = await dispatch(spine, ToolInvocation(name="schedule_tour", input={"when": "2020-01-01T10:00:00Z"},
                                                  tool_use_id="tu_past"), callers["prospect"])
    assert result.is_error and "in the past" in result.content and await spine.tours_of("p_prospect_9876") == []


async def test_available_units_filter(spine, callers):
    out = await run(spine, callers["prospect"], "get_available_units", bedrooms=2, move_in_by="2026-12-31")
    assert [u["unit"] for u in out["units"]] == ["401"]
    everything = await run(spine, callers["prospect"], "get_available_units")
    assert [u["unit"] for u in everything["units"]] == ["502", "401", "415"]


async def test_facility_tools_answer_for_the_inbound_property(spine, callers):
    assert (await run(spine, callers["other"], "get_pet_policy"))["deposit_usd"] == 400
    capitol = await run(spine, callers["carlos@capitol"], "get_pet_policy")
    assert capitol["allowed"] is False
    assert (await run(spine, callers["carlos@capitol"], "get_pool_status"))["has_pool"] is False


async def test_vendor_handoff_unassigns_and_reopens(spine, callers):
    await run(spine, callers["carlos"], "handoff_to_other_vendor", work_order_id="WO-42", reason="needs electrician")
    wo = await spine.get_work_order("wo_42")
    assert (wo.assigned_vendor_id, wo.status) == (None, WorkOrderStatus.OPEN)
    after = await dispatch(spine, ToolInvocation(name="get_dispatch_details", input={"work_order_id": "WO-42"},
                                                 tool_use_id="x"), callers["carlos"])
    assert after.is_error and after.rule == "scope:assigned-wo"  # no longer his


async def test_pm_tools(spine, callers):
    priya = callers["priya"]
    found = await run(spine, priya, "pm_lookup_person", phone="(303) 555-2020")
    assert found["matches"][0]["roles"] == ["tenant of unit 110 (primary)", "vendor contact for Carlos Plumbing"]
    assert found["matches"][0]["phone_last4"] == "2020"
    assert (await run(spine, priya, "pm_lookup_person", name="priya"))["matches"][0]["person_id"] == "p_priya"
    created = await run(spine, priya, "pm_create_work_order", unit="312", description="smoke detector chirping")
    assigned = await run(spine, priya, "pm_assign_vendor", work_order_id=created["work_order_id"], vendor_id="v_sparks")
    assert (assigned["vendor"], assigned["status"]) == ("Sparks Electric", "dispatched")
    listed = await run(spine, priya, "pm_list_open_work_orders")
    assert created["work_order_id"] in [w["work_order_id"] for w in listed["work_orders"]]
    await run(spine, priya, "pm_close_work_order", work_order_id="WO-7", resolution="flapper replaced")
    assert (await spine.get_work_order("wo_7")).status == WorkOrderStatus.CLOSED
    sent = await run(spine, callers["lena"], "pm_send_renewal", unit="110", term_months=6, monthly_rent_usd=1950)
    assert [o["term_months"] for o in sent["offers"]] == [12, 6]


async def test_pm_cannot_assign_a_vendor_that_does_not_service_the_property(spine, callers):
    result = await dispatch(spine, ToolInvocation(name="pm_assign_vendor", tool_use_id="tu_v",
                                                  input={"work_order_id": "WO-7", "vendor_id": "v_nobody"}),
                            callers["priya"])
    assert result.is_error and "no vendor v_nobody" in result.content


async def test_lease_details_never_show_the_balance(spine, callers):
    out = await run(spine, callers["jordan"], "get_lease_details")
    assert out["monthly_rent_usd"] == 2450 and "balance_usd" not in out


async def test_troubleshooting_matches_the_issue(spine, callers):
    out = await run(spine, callers["marcus"], "get_troubleshooting_steps", issue="garbage disposal is humming")
    assert out["topic"] == "garbage disposal" and out["steps"]
