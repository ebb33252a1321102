"""A scenario's wall clock: set to a local time at its property ("15:00", "tomorrow 09:05"), then
running with real time, so what the contact window decides (desk.outbound.queue) is the scenario's,
not the hour the suite happens to run at. Handed to the scenario's Spine as its clock."""
from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class EvalClock:
    def __init__(self, timezone: str) -> None:
        self.zone = ZoneInfo(timezone)
        self._base = datetime.now(UTC)
        self._since = time.monotonic()

    def set(self, at: str) -> None:
        """`HH:MM` today at the property (the scenario's day), `tomorrow HH:MM` the day after it, or
        `mon HH:MM` that weekday, today or the next one (office hours are per weekday)."""
        prefix, _, clock = at.rpartition(" ")
        hour, minute = (int(part) for part in clock.split(":"))
        today = self().astimezone(self.zone).date()
        ahead = 1 if prefix == "tomorrow" else (WEEKDAYS.index(prefix) - today.weekday()) % 7 if prefix else 0
        day = today + timedelta(days=ahead)
        self._base = datetime(day.year, day.month, day.day, hour, minute, tzinfo=self.zone).astimezone(UTC)
        self._since = time.monotonic()

    def shift(self, seconds: float) -> None:
        """Time passes at once (a turn's `after_s`, as the on-call ladder's clock moves)."""
        self._base += timedelta(seconds=seconds)

    def __call__(self) -> datetime:
        return self._base + timedelta(seconds=time.monotonic() - self._since)
