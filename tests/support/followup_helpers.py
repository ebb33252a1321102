"""Shared by the follow-up tests: Seattle times on a fixed Wednesday, a tour booked for Marcus
(the demo's tenant, here as a prospect touring another unit), and what the outbox holds."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import spine.keys as keys
from spine.work import Tour

YEAR = 2037  # 2 December is a Wednesday, as in 2026


def seattle(hour: int, minute: int = 0, day: int = 2) -> datetime:
    return datetime(YEAR, 12, day, hour, minute, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


def tour(at: datetime, tour_id: str = "tour_t1", person: str = "p_marcus") -> Tour:
    return Tour(id=tour_id, prospect_person_id=person, property_id="pf_yale", scheduled_at=at)


async def row(spine, followup_id: str):
    return await spine.get_outbox(keys.followup_outbox(followup_id))
