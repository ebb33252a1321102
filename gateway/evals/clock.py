"""A scenario's wall clock: set to a local time at its property ("15:00", "tomorrow 09:05"), then
running with real time, so what the contact window decides (desk.outbound.queue) is the scenario's,
not the hour the suite happens to run at. Handed to the scenario's Spine as its clock."""
from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo


class EvalClock:
    def __init__(self, timezone: str) -> None:
        self.zone = ZoneInfo(timezone)
        self._base = datetime.now(UTC)
        self._since = time.monotonic()

    def set(self, at: str) -> None:
        """`HH:MM` today at the property (the scenario's day), or `tomorrow HH:MM` the day after it."""
        tomorrow = at.startswith("tomorrow ")
        hour, minute = (int(part) for part in at.removeprefix("tomorrow ").split(":"))
        day = self().astimezone(self.zone).date() + timedelta(days=1 if tomorrow else 0)
        self._base = datetime(day.year, day.month, day.day, hour, minute, tzinfo=self.zone).astimezone(UTC)
        self._since = time.monotonic()

    def shift(self, seconds: float) -> None:
        """Time passes at once (a turn's `after_s`, as the on-call ladder's clock moves)."""
        self._base += timedelta(seconds=seconds)

    def __call__(self) -> datetime:
        return self._base + timedelta(seconds=time.monotonic() - self._since)
