"""Spine methods of tours: each tour is kept under its prospect (the GSI, for personContext) and in
its property's tour index, so a leasing agent's "any tours today?" is one prefix read.

A mixin of `Spine` (spine/repo/__init__.py) over RepoBase (spine/repo/base.py); keys from spine/keys/.
The index is a partition per property (`PROPTOURS#<property>`) sorted by the property's local
time (`2026-12-01T15:00#<tour id>`): a day is the prefix `2026-12-01T`, a week seven of them.
"""
from __future__ import annotations

import asyncio
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import spine.keys as keys
from spine.property import Property
from spine.repo.rollups import RollupRecords
from spine.work import Tour, TourStatus

DEFAULT_TIMEZONE = "UTC"  # a tour of a property no longer on file is indexed on UTC days


def tour_index_key(tour: Tour, timezone: str) -> tuple[str, str]:
    """A tour's place in its property's tour index: (partition, local time # tour id)."""
    local = tour.scheduled_at.astimezone(ZoneInfo(timezone))
    return keys.property_tours(tour.property_id), keys.tour_slot(f"{local:%Y-%m-%dT%H:%M}", tour.id)


def tour_day_prefix(day: date) -> str:
    return f"{day:%Y-%m-%d}T"


class TourRecords(RollupRecords):
    async def put_tour(self, tour: Tour) -> None:
        """Write the tour and its index item; a rescheduled tour leaves its old index slot."""
        prop = await self._get_reference(Property, keys.property_(tour.property_id))  # Spine.get_property
        timezone = prop.timezone if prop else DEFAULT_TIMEZONE
        before = await self.get_tour(tour.id)
        await self._put(tour, keys.tour(tour.id), gsi1pk=keys.person_tours(tour.prospect_person_id),
                        gsi1sk=tour.scheduled_at.isoformat())
        slot = tour_index_key(tour, timezone)
        await self._put(tour, *slot)
        if before is not None and (moved := tour_index_key(before, timezone)) != slot:
            await self.store.delete(*moved)
        if before is None:
            await self.bump(tour.property_id, "leads.tours_booked")
        elif tour.status == TourStatus.COMPLETED and before.status != TourStatus.COMPLETED:
            await self.bump(tour.property_id, "leads.tours_completed")

    async def get_tour(self, tour_id: str) -> Tour | None:
        return await self._get(Tour, keys.tour(tour_id))

    async def tours_of(self, person_id: str) -> list[Tour]:
        return await self._index(Tour, keys.person_tours(person_id))

    async def tours_at(self, property_id: str, first_day: date, days: int = 1) -> list[Tour]:
        """The property's tours on `days` local days from `first_day`, in time order: one prefix
        read of its tour index per day, side by side, never a scan."""
        reads = [self._query(Tour, keys.property_tours(property_id), tour_day_prefix(first_day + timedelta(days=n)))
                 for n in range(days)]
        return [tour for day in await asyncio.gather(*reads) for tour in day]
