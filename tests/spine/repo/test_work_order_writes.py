"""Two writers of one work order at once (a vendor's ETA and a tenant reporting it again, a Buildium
status and a staff note) both keep what they wrote: Spine.note_work_order applies the fields its
caller changed onto the stored order by compare-and-set, never a stale copy over a newer one."""
from __future__ import annotations

import spine.keys as keys
from spine.repo import Spine
from spine.work import Priority, WorkOrderStatus
from tests.support.store_fixtures import WriterFirst


async def test_two_readers_of_one_work_order_both_keep_their_change_and_note(spine):
    vendors_copy = await spine.get_work_order("wo_7")
    tenants_copy = await spine.get_work_order("wo_7")
    assert vendors_copy and tenants_copy
    vendors_copy.eta, vendors_copy.status = "today 3pm", WorkOrderStatus.SCHEDULED
    await spine.note_work_order(vendors_copy, "p_carlos", "ETA today 3pm", updated_at=None)
    tenants_copy.priority = Priority.URGENT
    await spine.note_work_order(tenants_copy, "p_marcus", "Reported again: it is worse", updated_at=None)
    stored = await spine.get_work_order("wo_7")
    assert stored is not None
    assert (stored.eta, stored.status, stored.priority) == ("today 3pm", WorkOrderStatus.SCHEDULED, Priority.URGENT)
    assert [n.text for n in stored.notes][-2:] == ["ETA today 3pm", "Reported again: it is worse"]
    # the writer's copy is now what was written, another writer's change included
    assert tenants_copy.eta == "today 3pm" and len(tenants_copy.notes) == len(stored.notes)


async def test_a_write_that_loses_its_race_is_applied_again_onto_the_newer_order(spine):
    async def staff_note_meanwhile() -> None:
        theirs = await spine.get_work_order("wo_7")
        assert theirs is not None
        await spine.note_work_order(theirs, "p_dana", "Called the tenant", updated_at=None)

    racing = Spine(WriterFirst(spine.store, (keys.work_order("wo_7"), keys.ITEM), staff_note_meanwhile))
    mine = await racing.get_work_order("wo_7")
    assert mine is not None
    mine.status = WorkOrderStatus.COMPLETED
    await racing.note_work_order(mine, None, "Buildium: task Completed", updated_at=None)
    stored = await spine.get_work_order("wo_7")
    assert stored is not None and stored.status == WorkOrderStatus.COMPLETED
    assert [n.text for n in stored.notes][-2:] == ["Called the tenant", "Buildium: task Completed"]


async def test_a_work_order_not_read_from_the_store_is_written_whole(spine):
    built = (await spine.get_work_order("wo_42")).model_copy()
    built._as_read = None
    built.brief = "new words"
    await spine.note_work_order(built, None, None, updated_at=None)
    stored = await spine.get_work_order("wo_42")
    assert stored is not None and stored.brief == "new words"
