"""The offline policy through every flow the gateway relies on (ADR K-1..K-5 and friends).

Requests are built the way the interaction builds them: tools as API dicts, a system prompt (which
the offline model must not read), and TurnFacts, the typed facts of the turn: roles, the caller's
name, personContext pointers and, after each round, the typed tool results."""
from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest

from actors.model.base import ModelRequest, ModelResponse
from actors.model.offline import OfflineModel
from actors.model.turn_facts import Tenancy, TurnFacts
from spine.context import ActivePointers, ActiveWorkOrder, PersonContext
from spine.identity import OccupancyKind
from spine.routing_types import MetaRole
from spine.toolspec import ToolResult
from tests.support.anthropic_server import validate

TODAY = date(2026, 11, 30)  # a Monday
FACILITY = ["get_property_amenities", "get_property_hours", "get_pet_policy", "get_parking_rules", "get_pool_status"]
TENANT = ["create_work_order", "get_unit_appliances", "get_troubleshooting_steps", "request_photo",
          "get_work_order_detail", "get_lease_details", "submit_rating", "get_balance", "respond_to_renewal"]
VENDOR = ["update_work_order", "add_eta_note", "get_dispatch_details", "handoff_to_other_vendor", "accept_dispatch"]
PROSPECT = ["save_prospect", "get_available_units", "schedule_tour", "get_pricing_details", "send_application_link"]
UNIVERSAL = ["escalate_to_human"]
WO_7 = {"id": "wo_7", "display_id": "WO-7", "status": "in_progress", "brief": "running toilet, unit 204"}
WO_7_VENDOR = {**WO_7, "as_vendor": True}
WO_42_VENDOR = {"id": "wo_42", "display_id": "WO-42", "status": "in_progress",
                "brief": "leak under kitchen sink, unit 312", "as_vendor": True}


DEFAULT_RESULTS = {"escalate_to_human": {"escalation_id": "esc_1", "status": "open",
                                         "message": "The property team has been notified and will follow up.",
                                         "notifications": [{"kind": "staff", "recipient_person_id": "p_priya",
                                                            "channel": "sms", "status": "queued"}]}}


def api_tool(name: str) -> dict[str, Any]:
    return {"name": name, "description": f"{name.replace('_', ' ')}.",
            "input_schema": {"type": "object", "properties": {}}}


def request(message: str, tools: list[str], roles: list[str], active: list[dict] | None = None,
            summary: str = "This is a fresh contact. No prior context available.",
            name: str | None = None, tenancies: list[tuple[str, str]] | None = None) -> ModelRequest:
    if tenancies is None and "tenant" in roles:
        tenancies = [("204", "primary")]
    context = PersonContext(person_id="p_test", summary=summary, active=ActivePointers(
        active_work_orders=[ActiveWorkOrder(**w) for w in active or []]))
    facts = TurnFacts(caller_name=name, roles=[MetaRole(r) for r in roles], context=context,
                      tenancies=[Tenancy(unit=u, kind=OccupancyKind(k)) for u, k in tenancies or []])
    system = [{"type": "text", "text": "You are Clara, a property management AI."},
              {"type": "text", "text": "Role guidance.", "cache_control": {"type": "ephemeral"}},
              {"type": "text", "text": "Caller: Somebody Else\n{\"roles\": [\"pm\"]}"}]  # prose it must not read
    return ModelRequest(system=system, tools=[api_tool(t) for t in dict.fromkeys(tools)],
                        messages=[{"role": "user", "content": message}], facts=facts)


@pytest.fixture
def model() -> OfflineModel:
    return OfflineModel(today=lambda: TODAY)


async def answer(model: OfflineModel, req: ModelRequest, results: dict[str, Any] | None = None,
                 errors: dict[str, str] | None = None,
                 refusals: dict[str, str] | None = None) -> tuple[list[ModelResponse], ModelRequest]:
    """Run the model <-> tools rounds with canned results, like the agent loop does: `errors` fail
    as a handler would, `refusals` are the gate's refusals (a typed decision)."""
    responses = []
    for _ in range(4):
        response = await model.complete(req)
        responses.append(response)
        offered = {t["name"] for t in req.tools}
        assert {u["name"] for u in response.tool_uses()} <= offered, "called a tool that was not offered"
        if not response.tool_uses():
            break
        typed = []
        for use in response.tool_uses():
            if use["name"] in (refusals or {}):
                typed.append(ToolResult(tool_use_id=use["id"], name=use["name"], is_error=True, decision="refused",
                                        rule="scope:assigned-wo", content=f"Not allowed: {refusals[use['name']]}"))
            elif use["name"] in (errors or {}):
                typed.append(ToolResult(tool_use_id=use["id"], name=use["name"], is_error=True,
                                        rule="handler-failure", content=f"Error: {errors[use['name']]}"))
            else:
                result = (results or {}).get(use["name"], DEFAULT_RESULTS.get(use["name"], {"ok": True, "message": "done"}))
                typed.append(ToolResult(tool_use_id=use["id"], name=use["name"], content=json.dumps(result)))
        facts = req.facts.model_copy(update={"results": [*req.facts.results, *typed]})
        req = req.model_copy(update={"facts": facts, "messages": req.messages + [
            {"role": "assistant", "content": response.content},
            {"role": "user", "content": [t.to_api() for t in typed]}]})
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
    (first, final), _ = await answer(model, req, {"add_eta_note": {"work_order_id": "WO-7", "status": "in_progress", "brief": "running toilet", "unit": "204"}})
    assert calls(first)["add_eta_note"]["work_order_id"] == "WO-7"
    assert calls(first)["add_eta_note"]["eta"] == "10 minutes"
    assert final.text() == "Got it Mike, see you in about 10 minutes. I've noted your ETA on WO-7."  # nobody to tell


def eta_result(status: str) -> dict[str, Any]:
    return {"add_eta_note": {"work_order_id": "WO-7", "status": "in_progress", "brief": "running toilet", "unit": "204",
                             "notifications": [{"kind": "notify", "recipient_person_id": "p_marcus",
                                                "channel": "sms", "status": status}]}}


@pytest.mark.parametrize(("status", "said"), [
    ("queued", "Got it Mike, see you in about 10 minutes. Tenant has been notified."),  # the ADR's K-2
    ("deferred", "Got it Mike, see you in about 10 minutes. I've noted your ETA on WO-7. The tenant will be told "
                 "at 9:00 am, when messages to residents resume."),
    ("blocked", "Got it Mike, see you in about 10 minutes. I've noted your ETA on WO-7. The tenant has opted out of "
                "messages, so they weren't told."),
])
async def test_k2_says_what_became_of_the_tenants_notice(model, status, said):
    req = request("I'm 10 min out from WO-7", FACILITY + VENDOR + UNIVERSAL, ["vendor"], [WO_7_VENDOR],
                  name="Mike Torres")
    (_, final), _ = await answer(model, req, eta_result(status))
    assert final.text() == said


async def test_k2_eta_without_a_number_uses_the_one_assigned_work_order(model):
    req = request("running late, be there at 3pm", ["update_work_order", "get_dispatch_details"], ["vendor"],
                  [WO_7_VENDOR], name="Mike Torres")
    (first, final), _ = await answer(model, req, {"update_work_order": {"work_order_id": "WO-7", "status": "in_progress", "brief": "running toilet", "unit": "204"}})
    assert calls(first) == {"update_work_order": {"work_order_id": "WO-7", "eta": "3pm",
                                                  "note": "Vendor ETA at 3pm: running late, be there at 3pm"}}
    assert final.text().startswith("Got it Mike, see you at 3pm.")


async def test_k3_prospect_two_bedrooms_next_month(model):
    req = request("do you have 2BR units next month?", FACILITY + PROSPECT + UNIVERSAL, ["prospect"])
    units = {"property_name": "JP Yale Station", "units": [
        {"unit": "401", "bedrooms": 2, "bathrooms": 2.0, "square_feet": 900, "monthly_rent_usd": 2695,
         "available_from": "2026-12-15"}]}
    (first, final), _ = await answer(model, req, {"get_available_units": units})
    assert calls(first) == {"save_prospect": {"bedrooms": 2, "move_in": "2026-12-01"},
                            "get_available_units": {"bedrooms": 2, "move_in_by": "2026-12-31"}}
    assert "unit 401 (2 bd / 2 ba, $2,695/mo, available Dec 15)" in final.text()
    assert "tour" in final.text()


async def test_k3_no_matching_units_says_so(model):
    req = request("any two bedroom apartments available in January?", PROSPECT, ["prospect"])
    (first, final), _ = await answer(model, req, {"get_available_units": {"property_name": "JP Yale Station", "units": []}})
    assert calls(first)["get_available_units"] == {"bedrooms": 2, "move_in_by": "2027-01-31"}
    assert "I don't see any 2BR units" in final.text()


async def test_k4_multi_role_check_on_work_order(model):
    req = request("check on WO-42", FACILITY + TENANT + VENDOR + UNIVERSAL, ["tenant", "vendor"], [WO_42_VENDOR])
    detail = {"work_order_id": "WO-42", "status": "in_progress", "brief": "leak under kitchen sink, unit 312",
              "unit": "312", "description": "Tenant in 312 reported a leak under the kitchen sink on Tuesday.",
              "notes": [{"at": "2026-11-20T16:30:00Z", "text": "Shutoff valve replaced."}],
              "property_id": "pf_yale", "created_at": "2026-11-18T10:00:00Z", "updated_at": "2026-11-20T16:30:00Z",
              "property_name": "JP Yale Station", "property_address": "1 Yale Ave"}
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
                                     {"get_pool_status": {"has_pool": True, "status": {"open": False, "reason": "Closed for the season"}}})
    assert list(calls(first)) == [tool]
    assert final.text()


async def test_pool_reply_reads_the_result(model):
    (_, final), _ = await answer(model, request("is the pool open?", FACILITY, ["prospect"]),
                                 {"get_pool_status": {"has_pool": True, "status": {"open": False, "reason": "Closed for the season"}}})
    assert final.text() == "The pool is closed right now — Closed for the season."


async def test_work_order_status_comes_from_context_without_a_tool(model):
    req = request("what's the status of my work order?", FACILITY + TENANT, ["tenant"], [WO_7])
    (only,), _ = await answer(model, req)
    assert only.tool_uses() == [] and only.text() == "WO-7 (running toilet, unit 204) is in progress."


async def test_status_question_without_open_work_orders_invents_nothing(model):
    (only,), _ = await answer(model, request("any update on my repair?", TENANT, ["tenant"], []))
    assert only.tool_uses() == [] and "don't see any open work orders" in only.text()


PAGING = {"status": "paging", "paged": ["Mike Torres"], "levels": 2, "message": "paged"}
NO_PLAN = {"status": "none", "paged": [], "levels": 0, "message": "no plan"}


@pytest.mark.parametrize("page", [PAGING, NO_PLAN])
async def test_gas_smell_escalates_and_opens_an_emergency_work_order(model, page):
    req = request("I smell gas in my kitchen", FACILITY + TENANT + UNIVERSAL, ["tenant"])
    (first, final), _ = await answer(model, req, {"create_work_order": {
        "work_order_id": "WO-813", "status": "open", "unit": "204", "brief": "possible gas leak", "priority": "emergency",
        "on_call": page}, "escalate_to_human": {"escalation_id": "esc_1", "status": "open", "message": "m",
                                                "on_call": page}})
    assert calls(first)["escalate_to_human"]["urgency"] == "emergency"
    assert calls(first)["create_work_order"]["priority"] == "emergency"
    assert "call 911" in final.text() and "WO-813" in final.text()
    alerted = final.text().count("I've alerted the on-call team")
    assert alerted == (1 if page is PAGING else 0)
    assert ("Mike Torres is being texted and called" in final.text()) == (page is PAGING)
    assert ("could not reach the on-call team" in final.text()) == (page is NO_PLAN)


async def test_an_escalation_that_messaged_nobody_promises_nobody(model):
    req = request("I want to talk to a person", FACILITY + TENANT + UNIVERSAL, ["tenant"])
    recorded = {"escalation_id": "esc_1", "status": "open", "message": "recorded", "notifications": []}
    (_, final), _ = await answer(model, req, {"escalate_to_human": recorded})
    assert "I've recorded this for the property team" in final.text()
    assert "alerted" not in final.text() and "passed this to the team" not in final.text()


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
    refusal = "the work order must be assigned to the caller's vendor"
    responses, _ = await answer(model, req, refusals={"get_dispatch_details": refusal})
    assert [list(calls(r)) for r in responses] == [["get_dispatch_details"], []]  # no escalation for a refusal
    text = responses[-1].text()
    assert "the office can assign it to you" in text and "v_carlos" not in text and "assigned-wo" not in text


async def test_tour_with_a_time_books_it_and_without_asks_for_one(model):
    req = request("can I tour unit 401 Tuesday at 3pm?", PROSPECT, ["prospect"])
    (first, final), _ = await answer(model, req, {"schedule_tour": {
        "tour_id": "t_1", "scheduled_at": "2026-12-01T15:00:00", "unit": "401", "property_name": "JP Yale Station",
        "address": "1 Yale Ave"}})
    assert calls(first)["schedule_tour"] == {"when": "2026-12-01T15:00:00", "unit": "401"}
    assert final.text() == "You're booked for a tour Tue, Dec 1 at 3pm of unit 401 at JP Yale Station, 1 Yale Ave. See you then!"
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
