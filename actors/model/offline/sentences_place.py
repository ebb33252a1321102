"""Sentences for results about places and leases: available units, pricing, tours, applications,
facility facts, the tenant's lease, balance, renewal and appliances, people lookups."""
from __future__ import annotations

from typing import Any

from actors.model.offline.entities import Entities
from actors.model.offline.reading import ToolCall
from actors.model.offline.results import Writer, day, find, generic, items, moment, money

COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def available_units(data: Any, call: ToolCall, e: Entities) -> str:
    units = items(data, "units", "available_units", "results")
    size = "studio" if e.bedrooms == 0 else f"{e.bedrooms}BR" if e.bedrooms else ""
    sized = f"{size} " if size else ""
    when = "next month" if "next month" in e.text.lower() else (f"by {day(e.move_in_by())}" if e.day else "")
    if not units:
        return (f"I don't see any {sized}units opening {when or 'soon'} right now. "
                "Want me to have the leasing team reach out if one opens up?")
    count = COUNTS[len(units)] if len(units) < len(COUNTS) else str(len(units))
    noun = "unit" if len(units) == 1 else "units"
    more = f" (and {len(units) - 3} more)" if len(units) > 3 else ""
    return (f"Yes — we have {count} {sized}{noun} available{' ' + when if when else ''}: "
            + "; ".join(_unit(u) for u in units[:3]) + more + ".")


def _unit(u: dict[str, Any]) -> str:
    number = find(u, "unit", "number", "unit_number")
    beds, baths = find(u, "bedrooms"), find(u, "bathrooms")
    rent, available = find(u, "monthly_rent_usd", "rent_usd", "rent"), find(u, "available_from", "available_on")
    size = (f"{beds} bd" + (f" / {baths:g} ba" if isinstance(baths, (int, float)) else "")) if beds is not None else ""
    facts = [size, f"{money(rent)}/mo" if rent is not None else "", f"available {day(available)}" if available else ""]
    return f"unit {number} (" + ", ".join(f for f in facts if f) + ")"


def pricing(data: Any, call: ToolCall, e: Entities) -> str:
    rents = sorted(float(r) for i in items(data, "units", "options", "prices", "results")
                   if (r := find(i, "monthly_rent_usd", "rent_usd", "rent", "price_usd")) is not None)
    if not rents:
        return generic(data)
    span = money(rents[0]) if rents[0] == rents[-1] else f"{money(rents[0])}–{money(rents[-1])}"
    return f"{e.bedrooms}BR rents run {span} a month." if e.bedrooms else f"Rents run {span} a month."


def tour_booked(data: Any, call: ToolCall, e: Entities) -> str:
    at = find(data, "scheduled_at", "when") or call.input.get("when")
    unit = find(data, "unit") or call.input.get("unit")
    place = find(data, "property_name")
    return (f"You're booked for a tour {moment(at) if at else ''}" + (f" of unit {unit}" if unit else "")
            + (f" at {place}" if place else "") + ". See you then!")


def application_sent(data: Any, call: ToolCall, e: Entities) -> str:
    url, email = find(data, "url", "link"), find(data, "email")
    return "Here's your application link" + (f" (also sent to {email})" if email else "") + (f": {url}" if url else ".")


def pool(data: Any, call: ToolCall, e: Entities) -> str:
    if find(data, "has_pool") is False:
        return "There's no pool at this property."
    is_open, reason, hours = find(data, "open"), find(data, "reason"), find(data, "pool_hours", "hours")
    if is_open:
        return "The pool is open" + (f" — hours: {hours}." if hours else ".")
    return ("The pool is closed right now" + (f" — {_lower_first(reason)}." if reason else ".")
            + (f" Hours: {hours}." if hours else ""))


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


def parking(data: Any, call: ToolCall, e: Entities) -> str:
    if find(data, "available") is False:
        return "There's no resident parking here."
    spots, cost = find(data, "spots"), find(data, "monthly_cost_usd")
    guest, towing = find(data, "guest_parking"), find(data, "towing_policy")
    text = "Parking: " + ", ".join(p for p in (f"{spots} spots" if spots else "",
                                                f"{money(cost)}/mo" if cost else "") if p) + "."
    return text + (f" Guests: {guest}." if guest else "") + (f" {towing}." if towing else "")


def hours(data: Any, call: ToolCall, e: Entities) -> str:
    labels = {"office_hours": "Office", "pool_hours": "Pool", "gym_hours": "Gym", "quiet_hours": "Quiet hours"}
    found = [f"{label}: {data[key]}" for key, label in labels.items() if isinstance(data, dict) and data.get(key)]
    return ". ".join(found) + "." if found else generic(data)


def amenities(data: Any, call: ToolCall, e: Entities) -> str:
    names = data if isinstance(data, list) else find(data, "amenities")
    if not (isinstance(names, list) and names):
        return generic(data)
    listed = ", ".join(map(str, names[:-1])) + " and " + str(names[-1]) if len(names) > 1 else str(names[0])
    return f"Amenities include {listed}."


def lease(data: Any, call: ToolCall, e: Entities) -> str:
    start, end, rent, unit = find(data, "start"), find(data, "end"), find(data, "monthly_rent_usd"), find(data, "unit")
    if not end:
        return generic(data)
    return (f"Your lease{' for unit ' + str(unit) if unit else ''} runs {day(start, True)} to {day(end, True)}"
            + (f" at {money(rent)}/mo." if rent else "."))


def balance(data: Any, call: ToolCall, e: Entities) -> str:
    amount = find(data, "balance_usd", "balance")
    if amount is None:
        return generic(data)
    due = find(data, "rent_due")
    return f"Your current balance is {money(amount)}." + (f" Rent is due {due}." if due else "")


def renewal(data: Any, call: ToolCall, e: Entities) -> str:
    status, term, rent = find(data, "status"), find(data, "term_months"), find(data, "monthly_rent_usd")
    if status is None:
        return generic(data)
    terms = " for " + ", ".join(p for p in (f"{term} months" if term else "", f"{money(rent)}/mo" if rent else "") if p)
    return f"Done — your renewal is {status}{terms if term or rent else ''}."


def appliances(data: Any, call: ToolCall, e: Entities) -> str:
    listed = [" ".join(str(a.get(k)) for k in ("kind", "brand", "model") if a.get(k)) for a in items(data, "appliances")]
    return ("Your unit has: " + "; ".join(listed) + ".") if listed else "I don't have appliances on file for your unit."


def people(data: Any, call: ToolCall, e: Entities) -> str:
    matches = items(data, "matches", "people", "results")
    if not matches:
        return "I couldn't find anyone matching that."
    found = [f"{m.get('name')}" + (f" — {'; '.join(m['roles'])}" if m.get("roles") else "") for m in matches[:3]]
    return "Found: " + ". ".join(found) + "."


def silent(data: Any, call: ToolCall, e: Entities) -> str:
    return ""  # bookkeeping the caller does not need to hear about


PLACE_WRITERS: dict[str, Writer] = {
    "get_available_units": available_units, "get_pricing_details": pricing, "schedule_tour": tour_booked,
    "send_application_link": application_sent, "get_pool_status": pool, "get_pet_policy": pets,
    "get_parking_rules": parking, "get_property_hours": hours, "get_property_amenities": amenities,
    "get_lease_details": lease, "get_balance": balance, "respond_to_renewal": renewal,
    "get_unit_appliances": appliances, "pm_lookup_person": people, "save_prospect": silent,
}
