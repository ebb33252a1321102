"""What a manager reads in the reports (`/admin/api/reports`, `/admin/reports`): the rollups
(spine.repo.rollups) of the last N local days of the properties named, summed, as the keys
ARCHITECTURE.md lists, and per day for the charts. Counted where each fact happens, so a report
reads N days of counters per property and never a trace."""
from __future__ import annotations

from collections import Counter
from datetime import date, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from spine.repo import Spine
from spine.repo.rollups import percentile

CHANNELS = ("sms", "voice", "email", "telegram")


class Percentiles(BaseModel):
    p50: float | None
    p90: float | None


class Inbound(BaseModel):
    sms: int
    voice: int
    email: int
    telegram: int


class Emergencies(BaseModel):
    count: int
    acknowledged: int
    exhausted: int
    time_to_ack_s: Percentiles


class Leads(BaseModel):
    new: int
    tours_booked: int
    tours_completed: int
    applications: int


class WorkOrders(BaseModel):
    opened: int
    completed: int
    reopened: int
    ratings: int
    rating_avg: float | None


class Report(BaseModel):
    first_response_s: Percentiles
    inbound: Inbound
    handoffs: int
    emergencies: Emergencies
    leads: Leads
    work_orders: WorkOrders


def _percentiles(c: Counter[str], key: str) -> Percentiles:
    return Percentiles(p50=percentile(c, key, 0.5), p90=percentile(c, key, 0.9))


def report_of(c: Counter[str]) -> Report:
    ratings = c["work_orders.ratings"]
    return Report(
        first_response_s=_percentiles(c, "first_response_s"),
        inbound=Inbound(**{ch: c[f"inbound.{ch}"] for ch in CHANNELS}),
        handoffs=c["handoffs"],
        emergencies=Emergencies(count=c["emergencies.count"], acknowledged=c["emergencies.acknowledged"],
                                exhausted=c["emergencies.exhausted"],
                                time_to_ack_s=_percentiles(c, "emergencies.time_to_ack_s")),
        leads=Leads(**{k: c[f"leads.{k}"] for k in ("new", "tours_booked", "tours_completed", "applications")}),
        work_orders=WorkOrders(opened=c["work_orders.opened"], completed=c["work_orders.completed"],
                               reopened=c["work_orders.reopened"], ratings=ratings,
                               rating_avg=round(c["work_orders.rating_sum"] / ratings, 2) if ratings else None))


def window(today: date, days: int) -> list[date]:
    """The last `days` local days, ending today, oldest first."""
    return [today - timedelta(days=n) for n in range(days - 1, -1, -1)]


async def daily_counts(spine: Spine, property_ids: list[str], days: int) -> dict[str, Counter[str]]:
    """{local day: counters summed over the properties}, oldest first, every day of the window
    present; each property's window ends on its own local today (its counters' days)."""
    by_day: dict[str, Counter[str]] = {}
    now = spine.clock()
    for property_id in property_ids:
        prop = await spine.get_property(property_id)
        span = window(now.astimezone(ZoneInfo(prop.timezone if prop else "UTC")).date(), days)
        for d in span:
            by_day.setdefault(d.isoformat(), Counter())
        for day, counts in (await spine.rollup_days(property_id, span[0], span[-1])).items():
            by_day[day].update(counts)
    return dict(sorted(by_day.items()))


def total(by_day: dict[str, Counter[str]]) -> Counter[str]:
    summed: Counter[str] = Counter()
    for counts in by_day.values():
        summed.update(counts)
    return summed


def flat(report: Report) -> list[tuple[str, object]]:
    """The report as (dotted key, value) rows: the CSV."""
    rows: list[tuple[str, object]] = []

    def walk(prefix: str, value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else k, v)
        else:
            rows.append((prefix, value))

    walk("", report.model_dump())
    return rows
