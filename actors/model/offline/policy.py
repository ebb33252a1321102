"""Round one of the offline policy: which of the OFFERED tools to call for the caller's words.

Rules run in a fixed order (safety first, then the caller's roles' jobs, then facility questions,
then follow-ups to Clara's own last question) and each names an intent; the replies module words
the answer. A tool that was not offered is never called: the rule falls through to the next tool
that was, or to a reply that says what the caller can do instead. The vendor rules live in
`rules_vendor`, the staff rules in `rules_staff`; after the results, `next_round` takes the one
step a result calls for.
"""
from __future__ import annotations

from typing import Any

from actors.model.offline.entities import Entities, extract
from actors.model.offline.plans import Call, Intent, Plan, earlier_work_order, with_unit
from actors.model.offline.reading import Reading
from actors.model.offline.rules_staff import renewal_after_lookup, staff_rule
from actors.model.offline.rules_vendor import vendor_rule
from actors.model.offline.tour_timing import tour_timing
from actors.model.offline.vocabulary import (
    APPLIANCES,
    APPLY,
    AVAILABILITY,
    BALANCE,
    FACILITIES,
    GREETING,
    HUMAN,
    INTRODUCTION,
    LEASE,
    NOT_A_NAME,
    PRICING,
    PROTECTED_CLASS,
    RENEW_NO,
    RENEW_YES,
    STATUS,
    THANKS,
    TOUR,
    WORK_TALK,
)
from spine.identity import OccupancyKind
from spine.intent.emergency import BUILDING_EMERGENCIES
from spine.routing_types import MetaRole


def plan(reading: Reading, ents: Entities) -> Plan:
    for rule in (_emergency, _on_the_line, _wrong_number, vendor_rule, _status, staff_rule, _maintenance, tour_timing,
                 _prospect, _fair_housing, _tenant_account, _facility, _human, _follow_up):
        found = rule(reading, ents)
        if found is not None:
            return _with_facility(found, reading, ents)
    if THANKS.search(ents.text):
        return Plan(Intent.THANKS)
    return Plan(Intent.GREETING if GREETING.search(ents.text) or len(ents.text) < 25 else Intent.UNCLEAR)


def addressed_name(text: str) -> str | None:
    """'yo what's up Trevor' -> 'Trevor': a greeting to someone who is not Clara."""
    if not GREETING.search(text):
        return None
    text = INTRODUCTION.sub(" ", text)
    words = [w.strip("?!.,") for w in text.split()[1:]]
    return next((w for w in words if w[:1].isupper() and w not in NOT_A_NAME and w.isalpha()), None)


def _emergency(r: Reading, e: Entities) -> Plan | None:
    if e.emergency is None:
        return None
    calls: list[Call] = []
    # The work order first: the page it starts names it (the escalation of the same turn joins that page).
    if e.emergency.kind in BUILDING_EMERGENCIES and r.offers("create_work_order"):
        calls.append(("create_work_order", with_unit({"description": e.message, "brief": e.emergency.brief,
                                                  "priority": "emergency"}, e)))
    if r.offers("escalate_to_human"):
        calls.append(("escalate_to_human", {"reason": f"Emergency: {e.emergency.brief}",
                                            "urgency": "emergency", "summary": e.text[:500]}))
    if r.offers("transfer_to_staff"):  # on a call: a person on the line now, besides the page
        calls.append(("transfer_to_staff", {"reason": f"Emergency: {e.emergency.brief}", "urgency": "emergency"}))
    return Plan(Intent.EMERGENCY, calls)


def _wrong_number(r: Reading, e: Entities) -> Plan | None:
    # Only for callers we do not know: a tenant greeting "Mike" is talking about the technician.
    return Plan(Intent.WRONG_NUMBER) if r.facts.unknown and addressed_name(e.text) and not e.problem else None


def _status(r: Reading, e: Entities) -> Plan | None:
    if not STATUS.search(e.text):
        return None
    wo = e.work_orders[0] if e.work_orders else None
    # "any update on my dishwasher?" right after Clara named its work order means that one.
    named_before = wo is None and not WORK_TALK.search(e.text)
    if named_before and (e.problem or _facility_calls(r, e) or (wo := earlier_work_order(r)) is None):
        return None
    if wo is not None:
        if r.work_order(wo):
            return Plan(Intent.WO_STATUS_CONTEXT, wo=wo)
        tool = r.offers("get_work_order_detail", "get_dispatch_details")
        return Plan(Intent.WO_DETAILS, [(tool, {"work_order_id": wo})] if tool else [], wo)
    if r.work_orders or not e.problem:
        return Plan(Intent.WO_STATUS_CONTEXT)
    return None


def _maintenance(r: Reading, e: Entities) -> Plan | None:
    if e.problem is None:
        return None
    calls: list[Call] = []
    if r.offers("create_work_order"):
        # The work order tool adds to an open one of the same unit and problem, and says so.
        calls.append(("create_work_order", with_unit({"description": e.message, "brief": e.problem.brief,
                                                  "priority": e.problem.priority}, e)))
    elif r.offers("pm_create_work_order") and e.units:
        calls.append(("pm_create_work_order", {"unit": e.units[0], "description": e.message,
                                               "brief": e.problem.brief, "priority": e.problem.priority}))
    if calls and r.offers("get_troubleshooting_steps"):
        issue = {"issue": e.problem.brief, **({"appliance": e.problem.fixture} if e.problem.fixture else {})}
        calls.append(("get_troubleshooting_steps", issue))
    if not calls and r.offers("escalate_to_human"):
        calls.append(("escalate_to_human", {"reason": f"Maintenance report: {e.problem.brief}",
                                            "urgency": e.problem.priority, "summary": e.text[:500]}))
    return Plan(Intent.MAINTENANCE, calls)


def _prospect_tools(r: Reading) -> bool:
    return bool(r.offers("get_available_units", "schedule_tour", "get_pricing_details", "send_application_link"))


def _prospect(r: Reading, e: Entities) -> Plan | None:
    tour, units = TOUR.search(e.text), AVAILABILITY.search(e.text) or e.bedrooms is not None
    if not (tour or units or PRICING.search(e.text) or APPLY.search(e.text)) or not _prospect_tools(r):
        return None
    calls: list[Call] = []
    fair = bool(PROTECTED_CLASS.search(e.text))
    move_in = e.day.isoformat() if e.day and not tour else None
    wants = {k: v for k, v in (("bedrooms", e.bedrooms), ("move_in", move_in)) if v is not None}
    if wants and r.offers("save_prospect"):
        calls.append(("save_prospect", wants))
    if tour and r.offers("schedule_tour"):
        return _tour(r, e, calls, fair)
    if APPLY.search(e.text) and r.offers("send_application_link"):
        return Plan(Intent.APPLY, calls + [("send_application_link", {"email": e.email} if e.email else {})],
                    fair_housing=fair)
    if PRICING.search(e.text) and r.offers("get_pricing_details"):
        calls.append(("get_pricing_details", with_unit({"bedrooms": e.bedrooms} if e.bedrooms is not None else {}, e)))
    if (units or not calls) and r.offers("get_available_units"):
        query: dict[str, Any] = {"bedrooms": e.bedrooms} if e.bedrooms is not None else {}
        if move_in_by := e.move_in_by():
            query["move_in_by"] = move_in_by.isoformat()
        calls.append(("get_available_units", query))
    return Plan(Intent.AVAILABILITY, calls, fair_housing=fair)


def _tour(r: Reading, e: Entities, calls: list[Call], fair: bool) -> Plan:
    when = e.when()
    if when is None:
        return Plan(Intent.TOUR_NEEDS_TIME, calls, fair_housing=fair)
    booking = {"when": when.isoformat(), **({"unit": e.units[0]} if e.units else {})}
    return Plan(Intent.TOUR, calls + [("schedule_tour", booking)], fair_housing=fair)


def _fair_housing(r: Reading, e: Entities) -> Plan | None:
    prospect_side = MetaRole.PROSPECT in r.facts.roles or r.facts.unknown
    return Plan(Intent.FAIR_HOUSING) if prospect_side and PROTECTED_CLASS.search(e.text) else None


def _tenant_account(r: Reading, e: Entities) -> Plan | None:
    if MetaRole.TENANT not in r.facts.roles:
        return None
    if e.stars and r.offers("submit_rating") and e.work_orders:
        return Plan(Intent.RATING, [("submit_rating", {"work_order_id": e.work_orders[0], "stars": e.stars,
                                                  "comment": e.text[:300]})], e.work_orders[0])
    decision = "accept" if RENEW_YES.search(e.text) else "decline" if RENEW_NO.search(e.text) else None
    if decision and r.offers("respond_to_renewal"):
        choice = {"decision": decision, **({"term_months": e.term_months} if e.term_months else {})}
        return Plan(Intent.RENEWAL, [("respond_to_renewal", with_unit(choice, e))])
    if (decision or LEASE.search(e.text)) and not r.facts.holds(OccupancyKind.PRIMARY):
        lease = [("get_lease_details", with_unit({}, e))] if r.offers("get_lease_details") else []
        return Plan(Intent.RENEWAL_NOT_SIGNER, lease)
    if BALANCE.search(e.text) and not r.offers("get_balance"):
        return Plan(Intent.BALANCE_NOT_RESPONSIBLE)
    for intent, tool, pattern in ((Intent.BALANCE, "get_balance", BALANCE), (Intent.LEASE_DETAILS, "get_lease_details", LEASE),
                                  (Intent.UNIT_APPLIANCES, "get_unit_appliances", APPLIANCES)):
        if pattern.search(e.text) and r.offers(tool):
            return Plan(intent, [(tool, with_unit({}, e))])
    return None


def _facility(r: Reading, e: Entities) -> Plan | None:
    calls = _facility_calls(r, e)
    return Plan(Intent.FACILITY, calls) if calls else None


def _facility_calls(r: Reading, e: Entities) -> list[Call]:
    for tool, pattern in FACILITIES:
        if pattern.search(e.text) and r.offers(tool):
            return [(tool, {})]
    return []


def _with_facility(found: Plan, r: Reading, e: Entities) -> Plan:
    # "2BR next month? do you allow dogs?" gets both answers in one round.
    if found.intent in (Intent.AVAILABILITY, Intent.TOUR, Intent.TOUR_NEEDS_TIME, Intent.APPLY):
        extra = [c for c in _facility_calls(r, e) if c[0] not in {n for n, _ in found.calls}]
        found.calls += extra
    return found


def _on_the_line(r: Reading, e: Entities) -> Plan | None:
    """On a call, asking for a person is answered first ("someone about my lease" is a transfer,
    not a lease lookup); in a text it waits its turn (an escalation, after the caller's jobs)."""
    return _human(r, e) if r.offers("transfer_to_staff") else None


def _human(r: Reading, e: Entities) -> Plan | None:
    if not HUMAN.search(e.text):
        return None
    if r.offers("transfer_to_staff"):  # on a call: put them through now rather than promise a callback
        return Plan(Intent.HUMAN, [("transfer_to_staff", {"reason": f"Caller asked for a person: {e.text[:200]}",
                                                          "urgency": "normal"})])
    calls = [("escalate_to_human", {"reason": "Caller asked for a person", "urgency": "normal",
                                    "summary": e.text[:500]})] if r.offers("escalate_to_human") else []
    return Plan(Intent.HUMAN, calls)


def _follow_up(r: Reading, e: Entities) -> Plan | None:
    """A reply to Clara's own last question: the earlier ask gives the intent, this one the details."""
    previous = r.earlier_asks()
    if not previous:
        return None
    before = extract(previous[-1], r.today)
    if e.when() is not None and _prospect_tools(r) and r.offers("schedule_tour"):
        # "Want to tour? Reply with a day and time" -> "Saturday at 11am"
        e.units = e.units or before.units
        return _tour(r, e, [], False)
    if (e.bedrooms is not None or e.day) and _prospect_tools(r):
        merged = extract(f"{previous[-1]} {e.text}", r.today)
        merged.text = f"{previous[-1]} {e.text}"
        return _prospect(r, merged)
    return None


# Tools whose failure leaves the caller without something they needed done: worth a human.
ACTION_TOOLS = frozenset({"create_work_order", "pm_create_work_order", "add_eta_note", "update_work_order",
                          "accept_dispatch", "handoff_to_other_vendor", "schedule_tour", "respond_to_renewal",
                          "send_application_link"})
MAX_ROUNDS = 3


def next_round(reading: Reading, chosen: Plan) -> list[Call]:
    """After the results: escalate once when an action failed (not a refusal), so the reply can
    truthfully say the team has it; or take the step a result made possible (a renewal for the
    person just looked up)."""
    if reading.rounds >= MAX_ROUNDS - 1:
        return []
    if chosen.intent == Intent.PM_RENEWAL_LOOKUP:
        return renewal_after_lookup(reading)
    if not reading.offers("escalate_to_human") or any(c.name == "escalate_to_human" for c in reading.calls):
        return []
    failed = [c for c in reading.calls if c.is_error and not c.refused and c.name in ACTION_TOOLS]
    if not failed:
        return []
    what = "; ".join(f"{c.name} failed: {c.failure}" for c in failed)
    return [("escalate_to_human", {"reason": f"Clara could not complete a request ({what})"[:300],
                                   "urgency": _urgency(failed[0].input.get("priority")),
                                   "summary": reading.ask[:500]})]


def _urgency(priority: Any) -> str:
    return priority if priority in ("urgent", "emergency") else "normal"
