"""A follow-up's message leaves once: a scheduler killed after queuing it and before marking it
sent leaves it pending, and the next tick finds the row it wrote; two schedulers racing on one
step write one row, one of them wins the compare-and-set. On SQLite and on DynamoDB (moto)."""
from __future__ import annotations

import asyncio

import pytest

import spine.keys as keys
from desk.followups.engine import Step, run_due, take_step
from desk.followups.plans import plan_tour
from desk.followups.records import body_of
from desk.outbound.queue import NotificationKind, OutboundRequest, queue_outbound
from desk.portfolio.demo import seed
from spine.followup import FollowUpStatus
from spine.records import OutboxStatus
from spine.repo import Spine
from tests.support.followup_helpers import seattle, tour
from tests.support.store_fixtures import BACKENDS, make_store

FID = "tour_t1-tour_reminder_24h"


@pytest.fixture(params=BACKENDS)
async def spine(request, tmp_path):
    """The demo data on a fresh store of each backend (a racing CAS and an index Query on DynamoDB too)."""
    s = Spine(make_store(request.param, request, tmp_path))
    await seed(s)
    yield s
    await s.store.close()


async def _booked(spine):
    t = tour(seattle(15, day=3))
    await spine.put_tour(t)
    await plan_tour(spine, t, now=seattle(9, day=1))


async def _rows(spine):
    rows = await spine.outbox(OutboxStatus.PENDING, limit=500)
    return [r for r in rows if r.id == keys.followup_outbox(FID)]


async def test_killed_after_queuing_the_next_tick_neither_repeats_nor_skips(spine):
    await _booked(spine)
    fu, _ = await spine.read_followup(FID)
    prop = await spine.get_property("pf_yale")
    spine.clock = lambda: seattle(15, 1, day=2)
    # What the killed scheduler got done: the row queued under the follow-up's key, nothing marked.
    await queue_outbound(spine, OutboundRequest(key=keys.followup_outbox(FID), kind=NotificationKind.FOLLOWUP,
                                                recipient_person_id="p_marcus", property_id="pf_yale",
                                                body=await body_of(spine, fu, prop)))
    assert (await spine.read_followup(FID))[0].status == FollowUpStatus.PENDING
    assert await run_due(spine, seattle(15, 2, day=2)) == [Step.SENT]
    assert len(await _rows(spine)) == 1
    assert (await spine.read_followup(FID))[0].status == FollowUpStatus.SENT


async def test_two_schedulers_racing_write_one_row(spine):
    await _booked(spine)
    spine.clock = lambda: seattle(15, 1, day=2)
    [(fu, version)] = await spine.due_followups(seattle(15, 1, day=2))  # both read it at this version
    steps = await asyncio.gather(*(take_step(spine, fu, version, seattle(15, 1, day=2)) for _ in range(2)))
    assert sorted(steps) == sorted([Step.SENT, Step.LOST])
    assert len(await _rows(spine)) == 1
