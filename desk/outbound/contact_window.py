"""When a routine message may reach a person: 09:00-19:00 in the property's time zone (EliseAI's
window for residents). Outside it, a message waits for the next 09:00 local; an emergency does not."""
from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

WINDOW_OPENS = time(9, 0)
WINDOW_CLOSES = time(19, 0)


def in_window(now: datetime, timezone: str) -> bool:
    local = now.astimezone(ZoneInfo(timezone)).time()
    return WINDOW_OPENS <= local < WINDOW_CLOSES


def next_window(now: datetime, timezone: str) -> datetime:
    """The next 09:00 local at or after `now` (UTC): today's before 09:00, else tomorrow's. Built
    from the local date, so a daylight-saving change moves it with the clock on the wall."""
    zone = ZoneInfo(timezone)
    local = now.astimezone(zone)
    day = local.date() if local.time() < WINDOW_OPENS else local.date() + timedelta(days=1)
    return datetime.combine(day, WINDOW_OPENS, tzinfo=zone).astimezone(UTC)
