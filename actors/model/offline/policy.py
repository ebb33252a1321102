"""Round one of the offline policy: which of the OFFERED tools to call for the caller's words.

Rules run in a fixed order (safety first, then the caller's roles' jobs, then facility questions)
and each names an intent; the replies module words the answer for that intent. A tool that was
not offered is never called: the rule falls through to the next tool that was, or to a reply.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from actors.model.offline.entities import Entities
from actors.model.offline.reading import Reading
from actors.model.offline.vocabulary import (
    ACCEPT_TALK, APPLIANCES, APPLY, AVAILABILITY, BALANCE, DONE_TALK, EMERGENCY_BRIEFS, ETA_TALK, FACILITIES,
    GREETING, HANDOFF_TALK, HUMAN, INTRODUCTION, LEASE, MINE, NOT_A_NAME, PM_ASSIGN, PM_CLOSE, PM_CREATE,
    PM_LOOKUP, PM_OPEN, PM_RENEWAL, PRICING, PROPERTY_EMERGENCIES, RENEW_NO, RENEW_YES, STATUS, TOUR, WORK_TALK,
)

Call = tuple[str, dict[str, Any]]


@dataclass
class Plan:
    intent: str
    calls: list[Call] = field(default_factory=list)
    wo: str | None = None  # the work order the caller means, if any


def plan(reading: Reading, ents: Entities) -> Plan:
    for rule in (_emergency, _wrong_number, _vendor, _status, _pm, _maintenance, _prospect, _tenant_account,
                 _facility, _human):
        found = rule(reading, ents)
        if found is not None:
            return _with_facility(found, reading, ents)
    return Plan("greeting" if GREETING.search(ents.text) or len(ents.text) < 25 else "unclear")


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
    if r.offers("escalate_to_human"):
        calls.append(("escalate_to_human", {"reason": f"Emergency: {EMERGENCY_BRIEFS[e.emergency]}",
                                            "urgency": "emergency", "summary": e.text[:500]}))
    if e.emergency in PROPERTY_EMERGENCIES and r.offers("create_work_order"):
        calls.append(("create_work_order", _unit({"description": e.message, "brief": EMERGENCY_BRIEFS[e.emergency],
                                                  "priority": "emergency"}, e)))
    return Plan("emergency", calls)


def _wrong_number(r: Reading, e: Entities) -> Plan | None:
    # Only for callers we do not know: a tenant greeting "Mike" is talking about the technician.
    unknown = not r.context.roles or r.context.roles == ["other"]
    return Plan("wrong_number") if unknown and addressed_name(e.text) and not e.problem else None


def _vendor_wo(r: Reading, e: Entities) -> str | None:
    if e.work_orders:
        return e.work_orders[0]
    mine = [w for w in r.context.work_orders if r.context.assigned_to_me(w)]
    return str(mine[0].get("display_id")) if len(mine) == 1 else None


def _vendor(r: Reading, e: Entities) -> Plan | None:
    if not r.offers("add_eta_note", "update_work_order", "get_dispatch_details", "accept_dispatch"):
        return None
    wo = _vendor_wo(r, e)
    eta_tool = r.offers("add_eta_note", "update_work_order")
    if ETA_TALK.search(e.text) and eta_tool:
        e.eta = e.eta or ("on the way", "soon")  # "omw to WO-7" names no time
        return Plan("vendor_eta", [(eta_tool, {"work_order_id": wo, "eta": e.eta[0],
                                               "note": f"Vendor ETA {e.eta[1]}: {e.text[:200]}"})] if wo else [], wo)
    if HANDOFF_TALK.search(e.text) and r.offers("handoff_to_other_vendor"):
        return Plan("vendor_handoff", [("handoff_to_other_vendor", {"work_order_id": wo, "reason": e.text[:300]})]
                    if wo else [], wo)
    closes_job = e.work_orders or (wo and not MINE.search(e.text))
    if DONE_TALK.search(e.text) and r.offers("update_work_order") and closes_job:
        return Plan("vendor_done", [("update_work_order", {"work_order_id": wo, "status": "completed",
                                                           "note": e.text[:300]})], wo)
    if ACCEPT_TALK.search(e.text) and e.work_orders and r.offers("accept_dispatch"):
        accept = {"work_order_id": wo, **({"eta": e.eta[0]} if e.eta else {})}
        return Plan("vendor_accept", [("accept_dispatch", accept)], wo)
    in_context = r.context.work_order(wo) if wo else None
    mine_or_asked = in_context is None or r.context.assigned_to_me(in_context) or STATUS.search(e.text)
    if e.work_orders and r.offers("get_dispatch_details") and mine_or_asked:
        return Plan("wo_details", [("get_dispatch_details", {"work_order_id": wo})], wo)
    return None


def _status(r: Reading, e: Entities) -> Plan | None:
    if not (STATUS.search(e.text) and (e.work_orders or WORK_TALK.search(e.text))):
        return None
    if e.work_orders:
        wo = e.work_orders[0]
        if r.context.work_order(wo):
            return Plan("wo_status_context", wo=wo)
        tool = r.offers("get_work_order_detail", "get_dispatch_details")
        return Plan("wo_details", [(tool, {"work_order_id": wo})] if tool else [], wo)
    if r.context.work_orders or not e.problem:
        return Plan("wo_status_context")
    return None


def _maintenance(r: Reading, e: Entities) -> Plan | None:
    if e.problem is None:
        return None
    calls: list[Call] = []
    if r.offers("create_work_order"):
        calls.append(("create_work_order", _unit({"description": e.message, "brief": e.problem.brief,
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
    return Plan("maintenance", calls)


def _prospect(r: Reading, e: Entities) -> Plan | None:
    calls: list[Call] = []
    tour, units = TOUR.search(e.text), AVAILABILITY.search(e.text) or e.bedrooms is not None
    if not (tour or units or PRICING.search(e.text) or APPLY.search(e.text)):
        return None
    if not r.offers("get_available_units", "schedule_tour", "get_pricing_details", "send_application_link"):
        return None
    move_in = e.day.isoformat() if e.day else None
    wants = {k: v for k, v in (("bedrooms", e.bedrooms), ("move_in", move_in)) if v is not None}
    if wants and r.offers("save_prospect"):
        calls.append(("save_prospect", wants))
    if tour and r.offers("schedule_tour"):
        if e.when() is None:
            return Plan("tour_needs_time", calls)
        calls.append(("schedule_tour", {"when": e.when().isoformat(), **({"unit": e.units[0]} if e.units else {})}))
        return Plan("tour", calls)
    if APPLY.search(e.text) and r.offers("send_application_link"):
        return Plan("apply", calls + [("send_application_link", {"email": e.email} if e.email else {})])
    if PRICING.search(e.text) and r.offers("get_pricing_details"):
        calls.append(("get_pricing_details", _unit({"bedrooms": e.bedrooms} if e.bedrooms is not None else {}, e)))
    if (units or not calls) and r.offers("get_available_units"):
        query: dict[str, Any] = {"bedrooms": e.bedrooms} if e.bedrooms is not None else {}
        if e.move_in_by():
            query["move_in_by"] = e.move_in_by().isoformat()  # type: ignore[union-attr]
        calls.append(("get_available_units", query))
    return Plan("availability", calls)


def _tenant_account(r: Reading, e: Entities) -> Plan | None:
    if e.stars and r.offers("submit_rating") and e.work_orders:
        return Plan("rating", [("submit_rating", {"work_order_id": e.work_orders[0], "stars": e.stars,
                                                  "comment": e.text[:300]})], e.work_orders[0])
    decision = "accept" if RENEW_YES.search(e.text) else "decline" if RENEW_NO.search(e.text) else None
    if decision and r.offers("respond_to_renewal"):
        choice = {"decision": decision, **({"term_months": e.term_months} if e.term_months else {})}
        return Plan("renewal", [("respond_to_renewal", _unit(choice, e))])
    for tool, pattern in (("get_balance", BALANCE), ("get_lease_details", LEASE), ("get_unit_appliances", APPLIANCES)):
        if pattern.search(e.text) and r.offers(tool):
            return Plan(tool.removeprefix("get_"), [(tool, _unit({}, e))])
    return None


def _pm(r: Reading, e: Entities) -> Plan | None:
    if not any(name.startswith("pm_") for name in r.offered):
        return None
    wo = e.work_orders[0] if e.work_orders else None
    if PM_ASSIGN.search(e.text) and wo and e.vendor_id and r.offers("pm_assign_vendor"):
        return Plan("pm", [("pm_assign_vendor", {"work_order_id": wo, "vendor_id": e.vendor_id})], wo)
    if PM_CLOSE.search(e.text) and wo and r.offers("pm_close_work_order"):
        return Plan("pm", [("pm_close_work_order", {"work_order_id": wo, "resolution": e.text[:300]})], wo)
    if PM_RENEWAL.search(e.text) and e.units and e.term_months and e.dollars and r.offers("pm_send_renewal"):
        return Plan("pm", [("pm_send_renewal", {"unit": e.units[0], "term_months": e.term_months,
                                                "monthly_rent_usd": e.dollars})])
    if PM_CREATE.search(e.text) and e.units and r.offers("pm_create_work_order"):
        brief = e.problem.brief if e.problem else e.text[:60]
        return Plan("pm", [("pm_create_work_order", {"unit": e.units[0], "description": e.message, "brief": brief})])
    if PM_OPEN.search(e.text) and r.offers("pm_list_open_work_orders"):
        return Plan("pm", [("pm_list_open_work_orders", {})])
    if PM_LOOKUP.search(e.text) and r.offers("pm_lookup_person") and (e.phone or _proper_name(e.text)):
        return Plan("pm", [("pm_lookup_person", {"phone": e.phone} if e.phone else {"name": _proper_name(e.text)})])
    return None


def _facility(r: Reading, e: Entities) -> Plan | None:
    calls = _facility_calls(r, e)
    return Plan("facility", calls) if calls else None


def _facility_calls(r: Reading, e: Entities) -> list[Call]:
    for tool, pattern in FACILITIES:
        if pattern.search(e.text) and r.offers(tool):
            return [(tool, {})]
    return []


def _with_facility(found: Plan, r: Reading, e: Entities) -> Plan:
    # "2BR next month? do you allow dogs?" gets both answers in one round.
    if found.intent in ("availability", "tour", "tour_needs_time", "apply"):
        extra = [c for c in _facility_calls(r, e) if c[0] not in {n for n, _ in found.calls}]
        found.calls += extra
    return found


def _human(r: Reading, e: Entities) -> Plan | None:
    if not HUMAN.search(e.text):
        return None
    calls = [("escalate_to_human", {"reason": "Caller asked for a person", "urgency": "normal",
                                    "summary": e.text[:500]})] if r.offers("escalate_to_human") else []
    return Plan("human", calls)


def _unit(args: dict[str, Any], e: Entities) -> dict[str, Any]:
    return {**args, "unit": e.units[0]} if e.units else args


def _proper_name(text: str) -> str | None:
    words = [w.strip("?!.,") for w in text.split()[1:]]
    names = [w for w in words if w[:1].isupper() and w.isalpha() and w not in NOT_A_NAME]
    return " ".join(names[:2]) or None


# Tools whose failure leaves the caller without something they needed done: worth a human.
ACTION_TOOLS = frozenset({"create_work_order", "pm_create_work_order", "add_eta_note", "update_work_order",
                          "accept_dispatch", "handoff_to_other_vendor", "schedule_tour", "respond_to_renewal",
                          "send_application_link"})
MAX_ROUNDS = 3


def follow_up(reading: Reading, failed_reasons: dict[str, str]) -> Call | None:
    """After the results: when an action failed (not a refusal), escalate once so the reply can
    truthfully say the team has it. `failed_reasons` maps tool_use id -> relayable reason ('' for
    a refusal)."""
    if reading.rounds >= MAX_ROUNDS - 1 or not reading.offers("escalate_to_human"):
        return None
    if any(c.name == "escalate_to_human" for c in reading.calls):
        return None
    failed = [c for c in reading.calls if c.is_error and c.name in ACTION_TOOLS and failed_reasons.get(c.id)]
    if not failed:
        return None
    what = "; ".join(f"{c.name} failed: {failed_reasons[c.id]}" for c in failed)
    return ("escalate_to_human", {"reason": f"Clara could not complete a request ({what})"[:300],
                                  "urgency": _urgency(failed[0].input.get("priority")),
                                  "summary": reading.ask[:500]})


def _urgency(priority: Any) -> str:
    return priority if priority in ("urgent", "emergency") else "normal"
