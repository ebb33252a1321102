"""The offline policy's staff rules (pm_* tools): assign, close, renew, open a work order, list the
open ones, list tours, look someone up; and the renewal that follows a lookup."""
from __future__ import annotations

from typing import Any

from actors.model.offline.entities import Entities, extract
from actors.model.offline.plans import Call, Intent, Plan, proper_name
from actors.model.offline.reading import Reading
from actors.model.offline.vocabulary import (
    PM_ASSIGN,
    PM_CLOSE,
    PM_CREATE,
    PM_LOOKUP,
    PM_OPEN,
    PM_RENEWAL,
    PM_TOURS,
    PM_WHO_IN_UNIT,
    WEEK,
)


def staff_rule(r: Reading, e: Entities) -> Plan | None:
    if not any(name.startswith("pm_") for name in r.offered):
        return None
    wo = e.work_orders[0] if e.work_orders else None
    if PM_ASSIGN.search(e.text) and wo and e.vendor_id and r.offers("pm_assign_vendor"):
        return Plan(Intent.PM, [("pm_assign_vendor", {"work_order_id": wo, "vendor_id": e.vendor_id})], wo)
    if PM_CLOSE.search(e.text) and wo and r.offers("pm_close_work_order"):
        return Plan(Intent.PM, [("pm_close_work_order", {"work_order_id": wo, "resolution": e.text[:300]})], wo)
    if PM_RENEWAL.search(e.text) or _renewal_follow_up(r, e):
        return _pm_renewal(r, e)
    if PM_CREATE.search(e.text) and e.units and r.offers("pm_create_work_order"):
        brief = e.problem.brief if e.problem else e.text[:60]
        return Plan(Intent.PM, [("pm_create_work_order", {"unit": e.units[0], "description": e.message, "brief": brief})])
    if PM_OPEN.search(e.text) and r.offers("pm_list_open_work_orders"):
        return Plan(Intent.PM, [("pm_list_open_work_orders", {})])
    if PM_TOURS.search(e.text):
        return Plan(Intent.PM, [("pm_list_tours", tour_period(e))]) if r.offers("pm_list_tours") else Plan(Intent.PM_TOURS)
    if PM_WHO_IN_UNIT.search(e.text) and e.units and r.offers("pm_lookup_person"):
        return Plan(Intent.PM, [("pm_lookup_person", {"unit": e.units[0]})])
    if PM_LOOKUP.search(e.text) and r.offers("pm_lookup_person") and (e.phone or proper_name(e.text)):
        return Plan(Intent.PM, [("pm_lookup_person", {"phone": e.phone} if e.phone else {"name": proper_name(e.text)})])
    return None


def tour_period(e: Entities) -> dict[str, Any]:
    """'today' (the tool's default), 'tomorrow', 'this week' or a date, as pm_list_tours takes them:
    today and tomorrow stay words, so the tool reads them on the property's clock."""
    period: dict[str, Any] = {"days": 7} if WEEK.search(e.text) else {}
    if e.named_day == "tomorrow":
        period["day"] = "tomorrow"
    elif e.day is not None and e.named_day is None and not e.month_level:
        period["day"] = e.day.isoformat()
    return period


def _renewal_follow_up(r: Reading, e: Entities) -> bool:
    """The PM answers Clara's 'what term and rent?' for a renewal she asked about."""
    return bool(e.term_months or e.dollars) and any(PM_RENEWAL.search(a) for a in r.earlier_asks()[-2:])


def _pm_renewal(r: Reading, e: Entities) -> Plan:
    earlier = [extract(a, r.today) for a in r.earlier_asks()[-2:] if PM_RENEWAL.search(a)]
    unit = next(iter(e.units or [u for x in earlier for u in x.units]), None)
    name = proper_name(e.text) or next((n for a in r.earlier_asks()[-2:] if (n := proper_name(a))), None)
    if unit is None and name and r.offers("pm_lookup_person"):
        return Plan(Intent.PM_RENEWAL_LOOKUP, [("pm_lookup_person", {"name": name})])
    if unit and e.term_months and e.dollars and r.offers("pm_send_renewal"):
        return Plan(Intent.PM, [("pm_send_renewal", {"unit": unit, "term_months": e.term_months,
                                                "monthly_rent_usd": int(e.dollars)})])
    return Plan(Intent.PM_RENEWAL_TERMS, wo=unit)


def renewal_after_lookup(reading: Reading) -> list[Call]:
    e = extract(reading.ask, reading.today)
    looked_up = next((c.output for c in reading.calls if c.name == "pm_lookup_person" and c.output), None)
    units = [u for m in getattr(looked_up, "matches", []) for u in m.units]
    if len(units) == 1 and e.term_months and e.dollars and reading.offers("pm_send_renewal"):
        return [("pm_send_renewal", {"unit": units[0], "term_months": e.term_months,
                                     "monthly_rent_usd": int(e.dollars)})]
    return []
