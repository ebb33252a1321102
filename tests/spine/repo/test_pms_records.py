"""A PMS connector's durable work changes only by compare-and-set on the version its writer holds:
a delivery is kept once and claimed by one worker, a write-back saved by one worker."""
from __future__ import annotations

from spine.identity import utcnow
from spine.repo.pms import InboxEvent, WriteBack


def _event() -> InboxEvent:
    return InboxEvent(system="buildium", event_id="e1", name="Lease.Updated", ids={"LeaseId": 3001},
                      received_at=utcnow())


async def test_a_delivery_is_kept_once(spine):
    assert await spine.create_pms_event(_event())
    assert not await spine.create_pms_event(_event())  # a redelivery while the first waits
    assert [e.event_id for e in await spine.pms_events("buildium", limit=10)] == ["e1"]


async def test_two_workers_claiming_one_delivery_one_wins(spine):
    await spine.create_pms_event(_event())
    [mine] = await spine.pms_events("buildium", limit=10)
    [theirs] = await spine.pms_events("buildium", limit=10)
    mine.attempts, theirs.attempts = 1, 1
    assert await spine.replace_pms_event(mine)
    assert not await spine.replace_pms_event(theirs)
    mine.error = "again"  # the winner holds the new version and writes on without a read
    assert await spine.replace_pms_event(mine)
    [stored] = await spine.pms_events("buildium", limit=10)
    assert stored.error == "again" and stored.version == mine.version


async def test_a_stale_write_back_save_loses(spine):
    wb = WriteBack(system="buildium", work_order_id="wo_1", lease_id=3001, tenant_id=1)
    assert await spine.create_write_back(wb)
    assert not await spine.create_write_back(wb.model_copy())  # queued before
    stale = await spine.read_write_back("buildium", "wo_1")
    wb.task_id, wb.in_doubt = 77, True
    assert await spine.replace_write_back(wb)
    stale.state = "failed"
    assert not await spine.replace_write_back(stale)  # would have lost the task id
    stored = await spine.read_write_back("buildium", "wo_1")
    assert stored.task_id == 77 and stored.in_doubt and stored.state == "pending"
    await spine.link_write_back_task(stored)
    assert (await spine.write_back_of_task("buildium", 77)).work_order_id == "wo_1"
    assert [w.work_order_id for w in await spine.write_backs("buildium")] == ["wo_1"]
