"""The office of a property: the line a caller is transferred to in office hours, and those hours
in the property's own time zone (ARCHITECTURE.md "Voice: a caller reaches a person").

`gateway office set PROPERTY_ID --phone E164 --hours "mon-fri 09:00-17:00"` writes one; hours are
kept as (weekdays, start, end) so "is the office open now" is a pure function of the record and a
clock, tested without waiting for Monday."""
from __future__ import annotations

import re
from datetime import datetime, time
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field, field_validator, model_validator

from spine.identity import utcnow

DAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")  # index = datetime.weekday()
_SPEC = re.compile(r"^\s*([a-z]{3}(?:\s*[-,]\s*[a-z]{3})*)\s+(\d{1,2}:\d{2})\s*-\s*(\d{1,2}:\d{2})\s*$")


class OfficeHours(BaseModel):
    """One opening: these weekdays (0 = Monday), from `start` until `end` (local time, same day)."""

    days: list[int] = Field(min_length=1)
    start: time
    end: time

    @field_validator("days")
    @classmethod
    def _weekdays(cls, days: list[int]) -> list[int]:
        if any(d < 0 or d > 6 for d in days):
            raise ValueError("weekdays are 0 (Monday) to 6 (Sunday)")
        return sorted(set(days))

    @model_validator(mode="after")
    def _ordered(self) -> OfficeHours:
        if self.end <= self.start:
            raise ValueError(f"{self.start:%H:%M}-{self.end:%H:%M}: the end must be after the start")
        return self

    def covers(self, local: datetime) -> bool:
        return local.weekday() in self.days and self.start <= local.time() < self.end

    def label(self) -> str:
        return f"{_days_label(self.days)} {self.start:%H:%M}-{self.end:%H:%M}"


class Office(BaseModel):
    property_id: str
    phone: str  # E.164
    hours: list[OfficeHours] = Field(default_factory=list)  # none: never open (every transfer goes on call)
    updated_at: datetime = Field(default_factory=utcnow)

    def is_open(self, at: datetime, timezone: str) -> bool:
        local = at.astimezone(ZoneInfo(timezone))
        return any(h.covers(local) for h in self.hours)


def parse_hours(spec: str) -> OfficeHours:
    """"mon-fri 09:00-17:00", "sat 10:00-14:00", "mon,wed 09:00-12:00" -> OfficeHours (ValueError)."""
    match = _SPEC.match(spec.lower())
    if match is None:
        raise ValueError(f"{spec!r}: hours look like \"mon-fri 09:00-17:00\"")
    days_part, start, end = match.groups()
    days: list[int] = []
    for piece in re.split(r"\s*,\s*", days_part):
        first, _, last = (p.strip() for p in piece.partition("-"))
        if first not in DAYS or (last and last not in DAYS):
            raise ValueError(f"{spec!r}: days are {', '.join(DAYS)}")
        a, b = DAYS.index(first), DAYS.index(last or first)
        days += list(range(a, b + 1)) if a <= b else [*range(a, 7), *range(b + 1)]  # "fri-mon" wraps
    try:
        return OfficeHours(days=days, start=_clock(start), end=_clock(end))
    except ValueError as exc:  # pydantic's ValidationError is a ValueError: one line for the CLI
        raise ValueError(f"{spec!r}: {exc}") from None


def _clock(text: str) -> time:
    hours, minutes = (int(p) for p in text.split(":"))
    if hours == 24 and minutes == 0:
        return time(23, 59, 59)
    return time(hours, minutes)


def _days_label(days: list[int]) -> str:
    if len(days) > 1 and days == list(range(days[0], days[-1] + 1)):
        return f"{DAYS[days[0]]}-{DAYS[days[-1]]}"
    return ",".join(DAYS[d] for d in days)
