"""The reports' counters under concurrent writers: two replicas adding to the same counters, their
reads and writes interleaved as a network store's are, lose no count and count none twice (each
counter a compare-and-set; a turn's counters read together, only the losers read again)."""
from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from spine.repo import Spine
from spine.repo.rollups import bucket_key


class YieldingStore:
    """The same store, but every call lets the other writers run first (as a network round trip does)."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __getattr__(self, name):
        method = getattr(self.inner, name)

        async def call(*args, **kwargs):
            await asyncio.sleep(0)
            return await method(*args, **kwargs)

        return call


async def test_interleaved_replicas_lose_no_count(spine):
    replicas = [Spine(YieldingStore(spine.store)) for _ in range(2)]
    at = datetime(2026, 12, 6, 18, tzinfo=UTC)  # 10:00 at Yale (Los Angeles)
    turns = [replica.bump_many("pf_yale", [("inbound.sms", 1, at), (bucket_key("first_response_s", 2.5), 1, at)])
             for replica in replicas for _ in range(8)]
    others = [replicas[1].bump("pf_yale", "inbound.sms", 2, at=at) for _ in range(5)]  # one of the two keys
    await asyncio.gather(*turns, *others)
    days = await spine.rollup_days("pf_yale", at.date(), at.date())
    assert days == {"2026-12-06": {"inbound.sms": 26, "first_response_s.le3": 16}}


async def test_a_counter_falls_on_the_propertys_local_day(spine):
    late = datetime(2026, 12, 7, 5, tzinfo=UTC)  # 21:00 on the 6th at Yale
    await spine.bump_many("pf_yale", [("inbound.sms", 1, late), ("inbound.sms", 1, late)])
    assert await spine.rollup_days("pf_yale", late.date(), late.date()) == {}
    days = await spine.rollup_days("pf_yale", datetime(2026, 12, 6).date(), late.date())
    assert days == {"2026-12-06": {"inbound.sms": 2}}
