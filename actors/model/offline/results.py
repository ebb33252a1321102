"""One templated sentence per tool result. Results are JSON of the tool layer's models; fields are
looked up by name anywhere in the result, so a renamed wrapper does not break a sentence, and an
unknown tool still gets a readable summary of its scalar fields."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from actors.model.offline.entities import Entities, clock_text
from actors.model.offline.reading import ToolCall

Writer = Callable[[Any, ToolCall, Entities], str]

ACTIONS = {
    "create_work_order": "open the work order", "pm_create_work_order": "open the work order",
    "add_eta_note": "note your ETA", "update_work_order": "update the work order",
    "accept_dispatch": "confirm the dispatch", "handoff_to_other_vendor": "hand the work order off",
    "get_dispatch_details": "pull up that work order", "get_work_order_detail": "pull up that work order",
    "schedule_tour": "book the tour", "get_available_units": "check availability",
    "get_pricing_details": "look up pricing", "send_application_link": "send the application link",
    "respond_to_renewal": "record your renewal answer", "submit_rating": "record your rating",
    "escalate_to_human": "reach the team", "get_balance": "look up your balance",
    "get_lease_details": "look up your lease", "get_troubleshooting_steps": "find troubleshooting steps",
}
COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
REFUSAL = re.compile(r"^\s*(?:role:|scope\b|unknown-tool|refused|not\s+allowed|not\s+authori[sz]ed)", re.IGNORECASE)


def find(data: Any, *keys: str) -> Any:
    """The first non-empty value under any of these keys, searching nested objects depth-first."""
    if isinstance(data, dict):
        for key in keys:
            if data.get(key) not in (None, "", []):
                return data[key]
        for value in data.values():
            if (found := find(value, *keys)) is not None:
                return found
    elif isinstance(data, list):
        for value in data:
            if (found := find(value, *keys)) is not None:
                return found
    return None


def items(data: Any, *keys: str) -> list[dict[str, Any]]:
    found = data if isinstance(data, list) else find(data, *keys)
    return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []


def money(value: Any) -> str:
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def day(value: Any) -> str:
    try:
        d = date.fromisoformat(str(value)[:10])
    except ValueError:
        return str(value)
    return f"{d:%b} {d.day}"


def moment(value: Any) -> str:
    try:
        at = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return f"{at:%a}, {at:%b} {at.day} at {clock_text(at.time())}"


def _raw_reason(call: ToolCall) -> str:
    data = call.data()
    reason = str(find(data, "error", "reason", "message", "detail") or "") if isinstance(data, (dict, list)) else data
    return reason.strip().rstrip(".")


def is_refusal(call: ToolCall) -> bool:
    """The gate said no (role or scope): relay politely, never escalate, never leak the rule."""
    return bool(REFUSAL.match(_raw_reason(call)))


def error_reason(call: ToolCall) -> str:
    if is_refusal(call):
        return "that isn't something I can do for your account"
    return _raw_reason(call).removeprefix("target: ")[:160]


def generic(data: Any) -> str:
    if isinstance(data, str):
        return data.strip()[:300]
    if message := find(data, "message"):
        return str(message)
    if not isinstance(data, dict):
        return ""
    facts = [f"{key.replace('_usd', '').replace('_', ' ')}: {money(v) if key.endswith('_usd') else v}"
             for key, v in data.items() if isinstance(v, (str, int, float)) and not key.endswith("_id")
             and not isinstance(v, bool)]
    facts += [f"{key.replace('_', ' ')}: {', '.join(map(str, v))}" for key, v in data.items()
              if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
    return ("Here's what I found — " + "; ".join(facts[:5]) + ".") if facts else ""


def work_order_created(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id", "display_id") or "a work order"
    brief = find(data, "brief") or call.input.get("brief") or "request"
    unit = find(data, "unit")
    priority = find(data, "priority") or call.input.get("priority")
    text = f"I've opened {wo} for the {brief}" + (f" in unit {unit}" if unit else "")
    text += f" and marked it {priority}." if priority in ("urgent", "emergency") else "."
    vendor, eta = find(data, "vendor"), find(data, "eta")
    if vendor:
        return text + f" {vendor} is assigned" + (f", ETA {eta}." if eta else ".")
    return text + " The maintenance team has it now."


def troubleshooting(data: Any, call: ToolCall, e: Entities) -> str:
    steps, stop_if = find(data, "steps") or [], find(data, "stop_and_report_if")
    urgent = e.problem is not None and e.problem.priority != "normal"
    if urgent and stop_if:
        return f"Meanwhile, if {stop_if}"
    first = f"Meanwhile, you can try this: {steps[0]}" if steps else ""
    return (first + (f" If {stop_if}" if stop_if else "")).strip()


def escalated(data: Any, call: ToolCall, e: Entities) -> str:
    if call.input.get("urgency") == "emergency":
        return "I've alerted the on-call team."
    return "I've passed this to the team, and someone will follow up."


def work_order_updated(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id", "display_id") or call.input.get("work_order_id")
    if call.input.get("eta") and call.input.get("status") is None:
        text = f"I've noted your ETA on {wo}."
    elif call.input.get("status") == "completed":
        text = f"I've marked {wo} as completed."
    else:
        text = f"I've updated {wo}."
    return text + (" The tenant has been notified." if find(data, "tenant_notified", "notified") else "")


def work_order_detail(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id", "display_id") or call.input.get("work_order_id")
    brief, unit, status = find(data, "brief"), find(data, "unit"), find(data, "status")
    text = f"{wo} — {brief or 'work order'}"
    text += f", unit {unit}" if unit and f"unit {unit}" not in str(brief) else ""
    text += f" ({str(status).replace('_', ' ')})." if status else "."
    description = find(data, "description")
    if description and len(str(description)) <= 160:
        text += f" {description}"
    notes = items(data, "notes")
    if notes and notes[-1].get("text"):
        text += f" Latest note: {notes[-1]['text']}"
    if eta := find(data, "eta"):
        text += f" ETA: {eta}."
    return text


def available_units(data: Any, call: ToolCall, e: Entities) -> str:
    units = items(data, "units", "available_units", "results")
    size = "studio" if e.bedrooms == 0 else f"{e.bedrooms}BR" if e.bedrooms else ""
    when = "next month" if "next month" in e.text.lower() else (f"by {day(e.move_in_by())}" if e.day else "")
    if not units:
        return f"I don't see any {size + ' ' if size else ''}units opening {when or 'soon'} right now. " \
               "Want me to have the leasing team reach out if one opens up?"
    shown = [_unit(u) for u in units[:3]]
    more = f" (and {len(units) - 3} more)" if len(units) > 3 else ""
    noun = "unit" if len(units) == 1 else "units"
    count = COUNTS[len(units)] if len(units) < len(COUNTS) else str(len(units))
    return f"Yes — we have {count} {size + ' ' if size else ''}{noun} available{' ' + when if when else ''}: " \
           + "; ".join(shown) + more + "."


def _unit(u: dict[str, Any]) -> str:
    number = find(u, "unit", "number", "unit_number")
    beds, baths = find(u, "bedrooms"), find(u, "bathrooms")
    rent, available = find(u, "monthly_rent_usd", "rent_usd", "rent"), find(u, "available_from", "available_on")
    facts = [f"{beds} bd" + (f" / {baths:g} ba" if isinstance(baths, (int, float)) else "") if beds is not None else "",
             f"{money(rent)}/mo" if rent is not None else "", f"available {day(available)}" if available else ""]
    return f"unit {number} (" + ", ".join(f for f in facts if f) + ")"


def pricing(data: Any, call: ToolCall, e: Entities) -> str:
    rents = sorted(float(r) for i in items(data, "units", "options", "prices", "results")
                   if (r := find(i, "monthly_rent_usd", "rent_usd", "rent", "price_usd")) is not None)
    if rents:
        span = money(rents[0]) if rents[0] == rents[-1] else f"{money(rents[0])}–{money(rents[-1])}"
        size = f"{e.bedrooms}BR " if e.bedrooms else ""
        return f"{size}rents run {span} a month."
    return generic(data)


def tour_booked(data: Any, call: ToolCall, e: Entities) -> str:
    at = find(data, "scheduled_at", "when") or call.input.get("when")
    unit = find(data, "unit") or call.input.get("unit")
    return f"You're booked for a tour {moment(at) if at else ''}" + (f" of unit {unit}" if unit else "") + ". See you then!"


def pool(data: Any, call: ToolCall, e: Entities) -> str:
    is_open, reason, hours = find(data, "open"), find(data, "reason"), find(data, "pool_hours", "hours")
    if is_open:
        return "The pool is open" + (f" — hours: {hours}." if hours else ".")
    return "The pool is closed right now" + (f" — {_lower_first(reason)}." if reason else ".") \
        + (f" Hours: {hours}." if hours else "")


def _lower_first(text: Any) -> str:
    text = str(text).rstrip(".")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def pets(data: Any, call: ToolCall, e: Entities) -> str:
    allowed, restrictions = find(data, "allowed"), find(data, "restrictions")
    if not allowed:
        return "Pets aren't allowed here." + (f" {restrictions}." if restrictions else "")
    species, deposit, rent = find(data, "species"), find(data, "deposit_usd"), find(data, "monthly_pet_rent_usd")
    text = "Pets are welcome" + (f" ({', '.join(species)})" if species else "")
    costs = [f"{money(deposit)} deposit" if deposit else "", f"{money(rent)}/mo pet rent" if rent else ""]
    text += (": " + " and ".join(c for c in costs if c) + ".") if any(costs) else "."
    return text + (f" {restrictions}." if restrictions else "")


def amenities(data: Any, call: ToolCall, e: Entities) -> str:
    names = data if isinstance(data, list) else find(data, "amenities")
    if isinstance(names, list) and names:
        return "Amenities include " + (", ".join(map(str, names[:-1])) + " and " if len(names) > 1 else "") \
               + f"{names[-1]}."
    return generic(data)


def balance(data: Any, call: ToolCall, e: Entities) -> str:
    amount = find(data, "balance_usd", "balance")
    return f"Your current balance is {money(amount)}." if amount is not None else generic(data)


def open_work_orders(data: Any, call: ToolCall, e: Entities) -> str:
    wos = items(data, "work_orders", "open_work_orders", "results")
    if not wos:
        return "There are no open work orders right now." if isinstance(data, (list, dict)) else generic(data)
    listed = [f"{find(w, 'work_order_id', 'display_id')} ({find(w, 'brief')}, {str(find(w, 'status')).replace('_', ' ')})"
              for w in wos[:5]]
    return f"{len(wos)} open: " + "; ".join(listed) + (f"; and {len(wos) - 5} more." if len(wos) > 5 else ".")


def silent(data: Any, call: ToolCall, e: Entities) -> str:
    return ""  # bookkeeping the caller does not need to hear about


WRITERS: dict[str, Writer] = {
    "create_work_order": work_order_created, "pm_create_work_order": work_order_created,
    "get_troubleshooting_steps": troubleshooting, "escalate_to_human": escalated,
    "add_eta_note": work_order_updated, "update_work_order": work_order_updated,
    "get_dispatch_details": work_order_detail, "get_work_order_detail": work_order_detail,
    "get_available_units": available_units, "get_pricing_details": pricing, "schedule_tour": tour_booked,
    "get_pool_status": pool, "get_pet_policy": pets, "get_property_amenities": amenities,
    "get_balance": balance, "pm_list_open_work_orders": open_work_orders, "save_prospect": silent,
}
