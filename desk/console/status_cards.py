"""The admin status cards (ADR "Status observability", Finding 6.3), counted from spine records.

Pure aggregation: lists of Event / AgentTrace in, card models out, with `now` passed in so the
7-day window and its edges are testable. No store access here; the gateway reads the records.

- Card 1, context-build gaps (`agent/context-build`): 7-day rolling count, per-reason and per-day
  counts, the 20 most recent; alarm when any day has more than 5.
- Card 2, graceful-degrade signals (`agent/graceful-degrade`, every exit into 'other'): 7-day
  count, per-reason / per-description / per-spine-category counts, the 20 most recent with the
  first-message snippet; alarm for any phone (last 4) routed to 'other' more than twice in 7 days.
- Cache-hit rate per role set over recent traces: share of input tokens read from the prompt
  cache; alarm below 50%.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import date, datetime, timedelta

from pydantic import BaseModel, Field

from spine.records import AgentTrace, Event, EventKind

WINDOW = timedelta(days=7)
RECENT = 20
CONTEXT_GAPS_PER_DAY_ALARM = 5  # more than this many in one (UTC) day fires the alarm
OTHER_REPEATS_ALARM = 2  # one phone in 'other' more than this many times in the window
CACHE_HIT_ALARM = 0.5  # a role set reading less than this share of input from cache


class DayCount(BaseModel):
    day: date
    count: int
    alarm: bool = False


class ContextGap(BaseModel):
    at: datetime
    reason: str
    channel: str | None = None
    phone_last4: str | None = None
    property_id: str | None = None
    interaction_id: str | None = None


class ContextBuildCard(BaseModel):
    window_start: datetime
    now: datetime
    total: int
    by_reason: dict[str, int]
    by_day: list[DayCount]
    alarm: bool
    alarm_days: list[date] = Field(default_factory=list)
    recent: list[ContextGap]


class DegradeSignal(BaseModel):
    at: datetime
    reason: str
    description: str | None = None
    spine_category: str | None = None
    channel: str | None = None
    phone_last4: str | None = None
    property_id: str | None = None
    interaction_id: str | None = None
    first_message_snippet: str = ""


class RepeatPhone(BaseModel):
    phone_last4: str
    count: int


class GracefulDegradeCard(BaseModel):
    window_start: datetime
    now: datetime
    total: int
    by_reason: dict[str, int]
    by_description: dict[str, int]
    by_spine_category: dict[str, int]
    alarm: bool
    repeat_phones: list[RepeatPhone] = Field(default_factory=list)
    recent: list[DegradeSignal]


class RoleCacheRate(BaseModel):
    roles: str  # the role set, e.g. "tenant+vendor" (one cached prompt prefix per set)
    traces: int
    input_tokens: int  # uncached + cache read + cache write
    cache_read_input_tokens: int
    hit_rate: float | None  # None when no input tokens were counted
    alarm: bool


def in_window(events: Iterable[Event], now: datetime, window: timedelta = WINDOW) -> list[Event]:
    """Events at or after `now - window`, newest first. Later-than-now events (another replica's
    clock running ahead) are kept: they are recent, not old."""
    start = now - window
    return sorted((e for e in events if e.at >= start), key=lambda e: e.at, reverse=True)


def _sorted_counts(counter: Counter[str]) -> dict[str, int]:
    return dict(sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])))


def _days(start: datetime, now: datetime, events: list[Event]) -> list[DayCount]:
    """One row per UTC calendar day the window touches, zero days included."""
    per_day = Counter(e.at.date() for e in events)
    last = max([now.date(), *per_day])
    day, rows = start.date(), []
    while day <= last:
        count = per_day.get(day, 0)
        rows.append(DayCount(day=day, count=count, alarm=count > CONTEXT_GAPS_PER_DAY_ALARM))
        day += timedelta(days=1)
    return rows


def context_build_card(events: Iterable[Event], now: datetime) -> ContextBuildCard:
    """Card 1 from `agent/context-build` events (other kinds are ignored)."""
    kept = in_window((e for e in events if e.kind == EventKind.CONTEXT_BUILD), now)
    days = _days(now - WINDOW, now, kept)
    alarm_days = [d.day for d in days if d.alarm]
    return ContextBuildCard(
        window_start=now - WINDOW, now=now, total=len(kept),
        by_reason=_sorted_counts(Counter(e.reason for e in kept)), by_day=days,
        alarm=bool(alarm_days), alarm_days=alarm_days,
        recent=[ContextGap(at=e.at, reason=e.reason, channel=e.channel, phone_last4=e.phone_last4,
                           property_id=e.property_id, interaction_id=e.interaction_id) for e in kept[:RECENT]],
    )


def _classification(event: Event) -> tuple[str | None, str | None]:
    oc = event.detail.get("other_classification")
    if not isinstance(oc, dict):
        return None, None
    return oc.get("description"), oc.get("spine_category")


def degrade_signal(event: Event) -> DegradeSignal:
    description, category = _classification(event)
    return DegradeSignal(at=event.at, reason=event.reason, description=description, spine_category=category,
                         channel=event.channel, phone_last4=event.phone_last4, property_id=event.property_id,
                         interaction_id=event.interaction_id,
                         first_message_snippet=str(event.detail.get("first_message_snippet") or ""))


def repeat_phones(signals: list[DegradeSignal]) -> list[RepeatPhone]:
    """Phones (last 4) routed to 'other' more than OTHER_REPEATS_ALARM times, most first.
    Only the last four digits are ever stored, so two numbers sharing them count together."""
    counts = Counter(s.phone_last4 for s in signals if s.phone_last4)
    return [RepeatPhone(phone_last4=p, count=n) for p, n in _sorted_counts(counts).items() if n > OTHER_REPEATS_ALARM]


def graceful_degrade_card(events: Iterable[Event], now: datetime) -> GracefulDegradeCard:
    """Card 2 from `agent/graceful-degrade` events (other kinds are ignored)."""
    kept = in_window((e for e in events if e.kind == EventKind.GRACEFUL_DEGRADE), now)
    signals = [degrade_signal(e) for e in kept]
    repeats = repeat_phones(signals)
    return GracefulDegradeCard(
        window_start=now - WINDOW, now=now, total=len(signals),
        by_reason=_sorted_counts(Counter(s.reason for s in signals)),
        by_description=_sorted_counts(Counter(s.description or "(none)" for s in signals)),
        by_spine_category=_sorted_counts(Counter(s.spine_category or "(none)" for s in signals)),
        alarm=bool(repeats), repeat_phones=repeats, recent=signals[:RECENT],
    )


def role_set(trace: AgentTrace) -> str:
    return "+".join(sorted(trace.routing.roles)) or "(none)"


def cache_hit_rates(traces: Iterable[AgentTrace], now: datetime, *,
                    exclude_models: tuple[str, ...] = ()) -> list[RoleCacheRate]:
    """Per role set, over traces started in the window: cache reads / all input tokens. Traces by
    a model in `exclude_models` (one with no prompt cache), keyword answers (no model) and traces
    with no input are skipped."""
    start = now - WINDOW
    totals: dict[str, list[int]] = {}
    for t in traces:
        if t.started_at < start or t.answered_by != "agent" or (exclude_models and t.model.startswith(exclude_models)):
            continue
        u = t.usage
        row = totals.setdefault(role_set(t), [0, 0, 0])
        row[0] += 1
        row[1] += u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens
        row[2] += u.cache_read_input_tokens
    rates = []
    for roles, (n, total, read) in sorted(totals.items()):
        rate = read / total if total else None
        rates.append(RoleCacheRate(roles=roles, traces=n, input_tokens=total, cache_read_input_tokens=read,
                                   hit_rate=rate, alarm=rate is not None and rate < CACHE_HIT_ALARM))
    return rates
