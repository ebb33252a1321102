"""The scheduler's tick also tells the managers of a dispatch nobody accepted within
args.dispatch.accept_within_s, once, and at most every REMIND_EVERY_S (no Ray: Ladders is the tick)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from actors.control.scheduler import REMIND_EVERY_S, Ladders
from desk.dispatch.dispatch import start_dispatch
from spine.records import OutboxStatus
from spine.work import WorkOrderStatus

NOON = datetime(2026, 12, 2, 12, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


async def test_a_dispatch_not_accepted_in_time_is_reported_once(spine):
    spine.clock = lambda: NOON
    wo = await spine.get_work_order("wo_42")
    wo.status = WorkOrderStatus.DISPATCHED
    await spine.put_work_order(wo)
    await start_dispatch(spine, wo, "v_carlos", by_person_id="p_priya")
    ladders = Ladders(spine, None, accept_within_s=600)
    assert (await ladders.tick(NOON + timedelta(seconds=300))).reminders == 0
    assert (await ladders.tick(NOON + timedelta(seconds=300 + REMIND_EVERY_S + 301))).reminders == 1
    assert (await ladders.tick(NOON + timedelta(seconds=300 + 3 * REMIND_EVERY_S + 301))).reminders == 1  # once
    [row] = [r for r in await spine.outbox(OutboxStatus.PENDING) if r.recipient_person_id == "p_priya"]
    assert "nobody at Carlos Plumbing has accepted WO-42" in row.body and "10 min after it was dispatched" in row.body
