"""The offline policy through every flow the gateway relies on (ADR K-1..K-5 and friends).

Requests are built by hand the way prompts.assemble shapes them: tools as API dicts named per
CONTRACTS.md, a stable system block with the cache breakpoint, then the volatile context block
(personContext summary, the active pointers JSON, the L1 breadcrumb JSON)."""
from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from actors.model.base import ModelRequest, ModelResponse
from actors.model.offline import OfflineModel
from tests.support.anthropic_server import validate

TODAY = date(2026, 11, 30)  # a Monday
FACILITY = ["get_property_amenities", "get_property_hours", "get_pet_policy", "get_parking_rules", "get_pool_status"]
TENANT = ["create_work_order", "get_unit_appliances", "get_troubleshooting_steps", "request_photo",
          "get_work_order_detail", "get_lease_details", "submit_rating", "get_balance", "respond_to_renewal"]
VENDOR = ["update_work_order", "add_eta_note", "get_dispatch_details", "handoff_to_other_vendor", "accept_dispatch"]
PROSPECT = ["save_prospect", "get_available_units", "schedule_tour", "get_pricing_details", "send_application_link"]
UNIVERSAL = ["escalate_to_human"]
WO_7 = {"id": "wo_7", "display_id": "WO-7", "status": "in_progress", "brief": "running toilet, unit 204"}
WO_7_VENDOR = {**WO_7, "brief": "running toilet, unit 204 (you are the assigned vendor)"}
WO_42_VENDOR = {"id": "wo_42", "display_id": "WO-42", "status": "in_progress",
                "brief": "leak under kitchen sink, unit 312 (you are the assigned vendor)"}


def api_tool(name: str) -> dict[str, Any]:
    return {"name": name, "description": f"{name.replace('_', ' ')}.",
            "input_schema": {"type": "object", "properties": {}}}


def request(message: str, tools: list[str], roles: list[str], active: list[dict] | None = None,
            summary: str = "This is a fresh contact. No prior context available.",
            name: str | None = None) -> ModelRequest:
    pointers = {"active_work_orders": active or [], "active_tours": [], "active_renewal_workflow_id": None,
                "last_channel": None, "last_interaction_at": None}
    context = (f"Caller: {name}\n" if name else "") + f"Summary: {summary}\nActive: {json.dumps(pointers)}\n" \
        + f"Routing: {json.dumps({'roles': roles, 'confidence': 'fact'})}"
    system = [{"type": "text", "text": "You are Clara, a property management AI."},
              {"type": "text", "text": "Role guidance.", "cache_control": {"type": "ephemeral"}},
              {"type": "text", "text": context}]
    return ModelRequest(system=system, tools=[api_tool(t) for t in dict.fromkeys(tools)],
                        messages=[{"role": "user", "content": message}])


@pytest.fixture
def model() -> OfflineModel:
    return OfflineModel(today=lambda: TODAY)


async def answer(model: OfflineModel, req: ModelRequest, results: dict[str, Any] | None = None,
                 errors: dict[str, str] | None = None) -> tuple[list[ModelResponse], ModelRequest]:
    """Run the model <-> tools rounds with canned results, like the agent loop does."""
    responses = []
    for _ in range(4):
        response = await model.complete(req)
        responses.append(response)
        offered = {t["name"] for t in req.tools}
        assert {u["name"] for u in response.tool_uses()} <= offered, "called a tool that was not offered"
        if not response.tool_uses():
            break
        blocks = []
        for use in response.tool_uses():
            if use["name"] in (errors or {}):
                blocks.append({"type": "tool_result", "tool_use_id": use["id"], "is_error": True,
                               "content": json.dumps({"error": errors[use["name"]]})})
            else:
                result = (results or {}).get(use["name"], {"ok": True, "message": "done"})
                blocks.append({"type": "tool_result", "tool_use_id": use["id"], "content": json.dumps(result)})
        req = req.model_copy(update={"messages": req.messages + [
            {"role": "assistant", "content": response.content}, {"role": "user", "content": blocks}]})
    body = {"model": "m", "max_tokens": 10, "system": req.system, "tools": req.tools, "messages": req.messages}
    assert validate(body) is None  # the conversation is one the real API would accept
    return responses, req


def calls(response: ModelResponse) -> dict[str, dict]:
    return {u["name"]: u["input"] for u in response.tool_uses()}


async def test_k1_tenant_overflowing_toilet(model):
    req = request("my toilet is overflowing!", FACILITY + TENANT + UNIVERSAL, ["tenant"], name="Marcus Johnson")
    results = {"create_work_order": {"work_order_id": "WO-812", "status": "open", "unit": "204",
                                     "brief": "overflowing toilet", "priority": "urgent"},
               "get_troubleshooting_steps": {"topic": "running toilet", "steps": ["Jiggle the handle."],
                                             "stop_and_report_if": "water is on the floor: shut the valve."}}
    (first, final), _ = await answer(model, req, results)
    chosen = calls(first)
    assert list(chosen) == ["create_work_order", "get_troubleshooting_steps"]
    assert chosen["create_work_order"]["priority"] == "urgent"
    assert chosen["create_work_order"]["brief"] == "overflowing toilet"
    assert chosen["create_work_order"]["description"] == "my toilet is overflowing!"
    assert "unit" not in chosen["create_work_order"]  # the caller's own unit
    assert final.text().startswith("Thanks Marcus. I've opened WO-812 for the overflowing toilet in unit 204")
    assert "shut the valve" in final.text()


async def test_k2_vendor_eta(model):
    req = request("I'm 10 min out from WO-7", FACILITY + VENDOR + UNIVERSAL, ["vendor"], [WO_7_VENDOR],
                  name="Mike Torres")
    (first, final), _ = await answer(model, req, {"add_eta_note": {"work_order_id": "WO-7", "tenant_notified": True}})
    assert calls(first)["add_eta_note"]["work_order_id"] == "WO-7"
    assert calls(first)["add_eta_note"]["eta"] == "10 minutes"
    assert final.text() == ("Got it Mike, see you in about 10 minutes. I've noted your ETA on WO-7. "
                            "The tenant has been notified.")


async def test_k2_eta_without_a_number_uses_the_one_assigned_work_order(model):
    req = request("running late, be there at 3pm", ["update_work_order", "get_dispatch_details"], ["vendor"],
                  [WO_7_VENDOR], name="Mike Torres")
    (first, final), _ = await answer(model, req, {"update_work_order": {"work_order_id": "WO-7"}})
    assert calls(first) == {"update_work_order": {"work_order_id": "WO-7", "eta": "3pm",
                                                  "note": "Vendor ETA at 3pm: running late, be there at 3pm"}}
    assert final.text().startswith("Got it Mike, see you at 3pm.")


async def test_k3_prospect_two_bedrooms_next_month(model):
    req = request("do you have 2BR units next month?", FACILITY + PROSPECT + UNIVERSAL, ["prospect"])
    units = {"units": [{"unit": "401", "bedrooms": 2, "bathrooms": 2.0, "monthly_rent_usd": 2695,
                        "available_from": "2026-12-15"}]}
    (first, final), _ = await answer(model, req, {"get_available_units": units})
    assert calls(first) == {"save_prospect": {"bedrooms": 2, "move_in": "2026-12-01"},
                            "get_available_units": {"bedrooms": 2, "move_in_by": "2026-12-31"}}
    assert "unit 401 (2 bd / 2 ba, $2,695/mo, available Dec 15)" in final.text()
    assert "tour" in final.text()


async def test_k3_no_matching_units_says_so(model):
    req = request("any two bedroom apartments available in January?", PROSPECT, ["prospect"])
    (first, final), _ = await answer(model, req, {"get_available_units": {"units": []}})
    assert calls(first)["get_available_units"] == {"bedrooms": 2, "move_in_by": "2027-01-31"}
    assert "I don't see any 2BR units" in final.text()


async def test_k4_multi_role_check_on_work_order(model):
    req = request("check on WO-42", FACILITY + TENANT + VENDOR + UNIVERSAL, ["tenant", "vendor"], [WO_42_VENDOR])
    detail = {"work_order_id": "WO-42", "status": "in_progress", "brief": "leak under kitchen sink, unit 312",
              "unit": "312", "description": "Tenant in 312 reported a leak under the kitchen sink on Tuesday.",
              "notes": [{"at": "2026-11-20T16:30:00Z", "text": "Shutoff valve replaced."}]}
    (first, final), _ = await answer(model, req, {"get_dispatch_details": detail})
    assert calls(first) == {"get_dispatch_details": {"work_order_id": "WO-42"}}
    assert final.text().startswith("WO-42 — leak under kitchen sink, unit 312 (in progress).")
    assert "Latest note: Shutoff valve replaced." in final.text() and final.text().endswith("on your end?")


async def test_k4_multi_role_tenant_side_opens_a_work_order(model):
    req = request("the disposal in my unit is jammed", TENANT + VENDOR, ["tenant", "vendor"], [WO_42_VENDOR])
    (first, _final), _ = await answer(model, req)
    assert calls(first)["create_work_order"]["brief"] == "jammed disposal"
    assert calls(first)["get_troubleshooting_steps"] == {"issue": "jammed disposal", "appliance": "disposal"}


async def test_k5_wrong_number_needs_no_tool(model):
    (only,), _ = await answer(model, request("yo what's up Trevor", UNIVERSAL, ["other"]))
    assert only.tool_uses() == []
    assert only.text().startswith("Looks like you have the wrong number — I'm Clara, a property management AI")


@pytest.mark.parametrize("message, tool", [
    ("is the pool open?", "get_pool_status"), ("can I have a dog here?", "get_pet_policy"),
    ("where do guests park?", "get_parking_rules"), ("what are the office hours?", "get_property_hours"),
    ("is there a gym?", "get_property_amenities"),
])
async def test_facility_questions_use_the_matching_facility_tool(model, message, tool):
    (first, final), _ = await answer(model, request(message, FACILITY + TENANT, ["tenant"]),
                                     {"get_pool_status": {"open": False, "reason": "Closed for the season"}})
    assert list(calls(first)) == [tool]
    assert final.text()


async def test_pool_reply_reads_the_result(model):
    (_, final), _ = await answer(model, request("is the pool open?", FACILITY, ["prospect"]),
                                 {"get_pool_status": {"open": False, "reason": "Closed for the season"}})
    assert final.text() == "The pool is closed right now — closed for the season."


async def test_work_order_status_comes_from_context_without_a_tool(model):
    req = request("what's the status of my work order?", FACILITY + TENANT, ["tenant"], [WO_7])
    (only,), _ = await answer(model, req)
    assert only.tool_uses() == [] and only.text() == "WO-7 (running toilet, unit 204) is in progress."


async def test_status_question_without_open_work_orders_invents_nothing(model):
    (only,), _ = await answer(model, request("any update on my repair?", TENANT, ["tenant"], []))
    assert only.tool_uses() == [] and "don't see any open work orders" in only.text()


async def test_gas_smell_escalates_and_opens_an_emergency_work_order(model):
    req = request("I smell gas in my kitchen", FACILITY + TENANT + UNIVERSAL, ["tenant"])
    (first, final), _ = await answer(model, req, {"create_work_order": {"work_order_id": "WO-813"}})
    assert calls(first)["escalate_to_human"]["urgency"] == "emergency"
    assert calls(first)["create_work_order"]["priority"] == "emergency"
    assert "call 911" in final.text() and "I've alerted the on-call team" in final.text() and "WO-813" in final.text()


async def test_emergency_from_an_unknown_caller_still_escalates(model):
    (first, final), _ = await answer(model, request("there's a fire in the hallway!!", UNIVERSAL, ["other"]))
    assert list(calls(first)) == ["escalate_to_human"]
    assert final.text().startswith("Please get out now and call 911.")


@pytest.mark.parametrize("message, tools, roles", [
    ("my toilet is overflowing!", PROSPECT, ["prospect"]),
    ("I'm 10 min out from WO-7", TENANT, ["tenant"]),
    ("do you have 2BR units next month?", TENANT + VENDOR, ["tenant", "vendor"]),
    ("is the pool open?", VENDOR, ["vendor"]),
    ("check on WO-42", TENANT, ["tenant"]),
    ("I smell gas", [], ["other"]),
])
async def test_never_calls_a_tool_that_was_not_offered(model, message, tools, roles):
    responses, _ = await answer(model, request(message, tools, roles))  # answer() asserts it
    assert responses[-1].text()


async def test_failed_action_is_flagged_for_the_team(model):
    req = request("the kitchen sink is leaking", TENANT + UNIVERSAL, ["tenant"], name="Marcus Johnson")
    responses, _ = await answer(model, req, errors={"create_work_order": "the work order store is unavailable"})
    assert [list(calls(r)) for r in responses[:2]] == [["create_work_order", "get_troubleshooting_steps"],
                                                      ["escalate_to_human"]]
    assert "store is unavailable" in calls(responses[1])["escalate_to_human"]["reason"]
    text = responses[-1].text()
    assert "I wasn't able to open the work order: the work order store is unavailable." in text
    assert "I've flagged this for the team" in text


async def test_refusal_is_relayed_without_escalation_or_rule_details(model):
    req = request("check on WO-42", VENDOR + UNIVERSAL, ["vendor"], [WO_7_VENDOR])
    refusal = "scope assigned_wo: Mike Torres is not a contact of v_carlos, the vendor assigned to WO-42"
    (first, final), _ = await answer(model, req, errors={"get_dispatch_details": refusal})
    assert list(calls(first)) == ["get_dispatch_details"]
    assert final.text() == "I wasn't able to pull up that work order: that isn't something I can do for your account."


async def test_tour_with_a_time_books_it_and_without_asks_for_one(model):
    req = request("can I tour unit 401 Tuesday at 3pm?", PROSPECT, ["prospect"])
    (first, final), _ = await answer(model, req, {"schedule_tour": {"scheduled_at": "2026-12-01T15:00:00"}})
    assert calls(first)["schedule_tour"] == {"when": "2026-12-01T15:00:00", "unit": "401"}
    assert final.text() == "You're booked for a tour Tue, Dec 1 at 3pm of unit 401. See you then!"
    (only,), _ = await answer(model, request("I'd like to tour", PROSPECT, ["prospect"]))
    assert only.tool_uses() == [] and "What day and time" in only.text()


async def test_usage_model_name_and_deterministic_ids(model):
    req = request("my toilet is overflowing!", TENANT, ["tenant"])
    one, two = await model.complete(req), await model.complete(req)
    assert one.model == "offline-rules" and one.usage.input_tokens > 0 and one.usage.output_tokens > 0
    assert [u["id"] for u in one.tool_uses()] == [u["id"] for u in two.tool_uses()]
    assert len({u["id"] for u in one.tool_uses()}) == 2 and one.stop_reason == "tool_use"


async def test_odd_requests_still_get_a_reply(model):
    empty = await model.complete(ModelRequest(messages=[]))
    assert empty.tool_uses() == [] and empty.text()
    odd = ModelRequest(tools=[api_tool("create_work_order")], messages=[
        {"role": "user", "content": ["not a block", {"type": "text", "text": "my sink is clogged " * 200}]}])
    response = await model.complete(odd)
    assert len(response.tool_uses()[0]["input"]["description"]) <= 2000


async def test_photo_note_is_kept_in_the_description_but_not_parsed(model):
    message = "my sink is leaking\n[attached media: https://api.twilio.com/m/ME1.jpg]"
    (first, _), _ = await answer(model, request(message, TENANT, ["tenant"]))
    assert calls(first)["create_work_order"]["description"] == message
    assert calls(first)["create_work_order"]["brief"] == "leaking sink"


async def test_vendor_on_the_way_without_a_time(model):
    req = request("omw to WO-7", VENDOR, ["vendor"], [WO_7_VENDOR], name="Mike Torres")
    (first, final), _ = await answer(model, req)
    assert calls(first)["add_eta_note"]["eta"] == "on the way"
    assert final.text().startswith("Got it Mike, see you soon.")


async def test_a_known_tenant_greeting_someone_is_not_a_wrong_number(model):
    (only,), _ = await answer(model, request("hey Mike", TENANT, ["tenant"], name="Marcus Johnson"))
    assert "wrong number" not in only.text() and only.text().startswith("Hi Marcus")
