"""Spine methods of the reports' rollups: counters per property, local day and key, incremented
where each fact happens (a message recorded, an escalation filed, a page acknowledged, a work
order completed, ...), so a report over N days reads N days of counters and never a trace.

A counter is one item (`ROLLUP#<property>`, `<day>#<key>`), added to by compare-and-set. A time
(first response, time to acknowledge) is counted into a histogram of bounds (`<key>.le<bound>`),
from which a report reads percentiles (the bound the percentile falls under).
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import spine.keys as keys
from spine.repo.base import RepoBase
from spine.store.base import ABSENT, ConditionFailed, Item

CAS_TRIES = 32
# Seconds: a first response from Clara is seconds, a staff member's minutes to hours.
BOUNDS = (1, 2, 3, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400, 604800)


def bucket_key(key: str, seconds: float) -> str:
    bound = next((b for b in BOUNDS if seconds <= b), BOUNDS[-1])
    return f"{key}.le{bound}"


def percentile(counts: dict[str, int], key: str, q: float) -> float | None:
    """The bound under which `q` of `key`'s observations fall; None without any."""
    buckets = [(b, counts.get(f"{key}.le{b}", 0)) for b in BOUNDS]
    total = sum(n for _, n in buckets)
    if total == 0:
        return None
    seen = 0
    for bound, n in buckets:
        seen += n
        if seen >= q * total:
            return float(bound)
    return float(BOUNDS[-1])


class RollupRecords(RepoBase):
    async def _local_day(self, property_id: str, at: datetime | None) -> str:
        timezone = await self._property_field(property_id, "timezone")
        return (at or self.clock()).astimezone(ZoneInfo(timezone or "UTC")).date().isoformat()

    async def bump(self, property_id: str, key: str, n: int = 1, *, at: datetime | None = None) -> None:
        """Add `n` to the property's counter `key` for the local day of `at` (default now)."""
        await self.bump_many(property_id, [(key, n, at)])

    async def observe(self, property_id: str, key: str, seconds: float, *, at: datetime | None = None) -> None:
        """Count one time into `key`'s histogram."""
        await self.bump(property_id, bucket_key(key, seconds), at=at)

    async def bump_many(self, property_id: str, counts: list[tuple[str, int, datetime | None]]) -> None:
        """Add to several of the property's counters at once, each `(key, n, at)` as `bump`: one read
        of them all, then a compare-and-set each (only the ones that lost a race are read again). A
        turn's inbound count and first response time cost one read, not two."""
        pk, added = keys.rollups(property_id), dict[str, int]()
        for key, n, at in counts:
            position = keys.rollup_position(await self._local_day(property_id, at), key)
            added[position] = added.get(position, 0) + n
        for _ in range(CAS_TRIES):
            if len(added) == 1:
                [position] = added
                read = await self.store.get(pk, position)
                found = {(pk, position): read} if read else {}
            else:
                found = await self.store.get_many([(pk, position) for position in added])
            added = {position: n for position, n in added.items() if not await self._add(found.get((pk, position)),
                                                                                         pk, position, n)}
            if not added:
                return
        raise ConditionFailed(f"rollups {property_id} {sorted(added)} kept changing under {CAS_TRIES} tries")

    async def _add(self, item: Item | None, pk: str, position: str, n: int) -> bool:
        """Write the counter read as `item` plus `n`; False when another writer was first."""
        return await self._replace(Item(pk=pk, sk=position, data={"n": (item.data["n"] if item else 0) + n}),
                                   item.version if item else ABSENT)

    async def rollup_days(self, property_id: str, first: date, last: date) -> dict[str, dict[str, int]]:
        """{day: {key: n}} for the days from `first` to `last`: one query per month spanned."""
        months = sorted({(first + timedelta(days=d)).strftime("%Y-%m-") for d in range((last - first).days + 1)})
        days: dict[str, dict[str, int]] = {}
        for month in months:
            for item in await self.store.query(keys.rollups(property_id), month):
                day, _, key = item.sk.partition("#")
                if first.isoformat() <= day <= last.isoformat():
                    days.setdefault(day, {})[key] = item.data["n"]
        return days
