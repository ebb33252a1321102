"""Spine methods of a work order's changes, the console's work-order board and the team's routine
batches: the copies of each work order kept beside the record (spine.repo.items.work_order_board_items)
and the board's page.

Every writer of a work order goes through Spine.put_work_order (a new one), Spine.note_work_order (a
change, by compare-and-set) or an import's batch of the same items, which files the copies here: a
status or priority change deletes the copies that named the old one. A page is one descending
query of one partition per scope (a property's or a whole org's board), merged newest first.
"""
from __future__ import annotations

import copy
from datetime import datetime

from pydantic import BaseModel, Field

import spine.keys as keys
from spine.feed import ChangeKind
from spine.property import Property
from spine.repo.base import CAS_TRIES
from spine.repo.feed import ChangeFeedRecords
from spine.repo.items import work_order_board_items, work_order_item
from spine.repo.rollups import RollupRecords
from spine.store.base import ConditionFailed, Item
from spine.work import WorkOrder, WorkOrderNote, WorkOrderPmsLink, WorkOrderStatus


class RoutineBatch(BaseModel):
    """The lines one person is told of in one slot (stored as {"lines": [...]})."""

    lines: list[str] = Field(default_factory=list)


DONE = frozenset({WorkOrderStatus.COMPLETED, WorkOrderStatus.CLOSED})


class WorkOrderBoardRecords(ChangeFeedRecords, RollupRecords):
    async def work_order_written(self, before: WorkOrder | None, after: WorkOrder) -> None:
        """What follows every write of a work order: its board copies, the live pages' feed, the reports."""
        await self.file_on_board(before, after)
        await self.note_change(ChangeKind.WORK_ORDER, after.display_id, after.property_id,
                               detail={"status": after.status})
        await self._count_work_order(before, after)

    async def note_work_order(self, wo: WorkOrder, author_person_id: str | None, note: str | None, *,
                              updated_at: datetime | None) -> WorkOrder:
        """The one way a changed work order is written and a note joins it: the fields its caller
        set since reading it are applied onto the stored order by compare-and-set (again on a lost
        race; a work order not read from the store is written whole), `note` added to its history
        (None: no note), touched at `updated_at` (None: left as it was). `wo` becomes what was
        written (another writer's fields and notes included), which is also returned."""
        fields = wo.changed_since_read()

        def apply(found: WorkOrder | None) -> WorkOrder:
            if found is None or fields is None:
                after = wo.model_copy(deep=True)
            else:
                after = found.model_copy(update={name: copy.deepcopy(getattr(wo, name)) for name in fields})
            if note:
                after.notes = [*after.notes, WorkOrderNote(author_person_id=author_person_id, text=note)]
            if updated_at is not None:
                after.updated_at = updated_at
            return after

        changed = await self._compare_and_set(WorkOrder, keys.work_order(wo.id), change=apply, tries=CAS_TRIES,
                                              item_of=lambda after, _: work_order_item(after))
        if changed.lost or changed.after is None:
            raise ConditionFailed(f"work order {wo.id} kept changing under {CAS_TRIES} tries")
        await self.work_order_written(changed.before, changed.after)
        written = changed.after
        for name in WorkOrder.model_fields:
            setattr(wo, name, getattr(written, name))
        wo.remember_read(written.model_dump(mode="json"))
        return written

    async def link_work_order(self, wo_id: str, link: WorkOrderPmsLink) -> WorkOrder | None:
        """Set the work order's link to its PMS record by compare-and-set: a turn writing the work
        order meanwhile (a note, a status) is read again, never overwritten. None: no such order."""
        changed = await self._compare_and_set(
            WorkOrder, keys.work_order(wo_id), change=lambda found: found.model_copy(update={"pms": link}) if found else None,
            item_of=lambda after, _: work_order_item(after))
        if changed.lost:
            raise ConditionFailed(f"work order {wo_id} kept changing under {CAS_TRIES} tries")
        if changed.after is not None:
            await self.work_order_written(changed.before, changed.after)
        return changed.after

    async def _count_work_order(self, before: WorkOrder | None, after: WorkOrder) -> None:
        """The reports' `work_orders` counters, on the change that is the fact."""
        counts: list[tuple[str, int]] = []
        if before is None:
            counts.append(("work_orders.opened", 1))
        elif after.status == WorkOrderStatus.OPEN and before.status in DONE:
            counts.append(("work_orders.reopened", 1))
        if after.status == WorkOrderStatus.COMPLETED and (before is None or before.status != after.status):
            counts.append(("work_orders.completed", 1))
        if after.rating is not None and (before is None or before.rating is None):
            counts += [("work_orders.ratings", 1), ("work_orders.rating_sum", after.rating)]
        for key, n in counts:
            await self.bump(after.property_id, key, n)

    async def _org_of(self, property_id: str) -> str | None:
        prop = await self._get_reference(Property, keys.property_(property_id))
        return prop.org_id if prop else None

    async def file_on_board(self, before: WorkOrder | None, after: WorkOrder) -> None:
        """Write `after`'s board copies; drop those of `before` that `after` no longer has."""
        fresh = work_order_board_items(after, await self._org_of(after.property_id))
        if before is not None:
            keep = {(i.pk, i.sk) for i in fresh}
            for old in work_order_board_items(before, await self._org_of(before.property_id)):
                if (old.pk, old.sk) not in keep:
                    await self.store.delete(old.pk, old.sk)
        await self.store.put_many(fresh)

    async def work_order_board(self, *, property_ids: list[str] | None = None, org_ids: list[str] | None = None,
                               status: str | None = None, priority: str | None = None,
                               limit: int = 50) -> list[WorkOrder]:
        """Newest first: one query per board named (properties' or orgs'), merged."""
        boards = [keys.work_order_board(keys.property_scope(p), status, priority) for p in property_ids or []]
        boards += [keys.work_order_board(keys.org_scope(o), status, priority) for o in org_ids or []]
        found: list[Item] = []
        for board in boards:
            found += await self.store.query(board, limit=limit, descending=True)
        found.sort(key=lambda i: i.sk, reverse=True)
        return [WorkOrder.model_validate(i.data) for i in found[:limit]]

    async def add_to_routine_batch(self, person_id: str, slot: str, line: str) -> list[str]:
        """Add `line` (a new routine work order) to what `person_id` is told of in `slot`, once (a
        retry adds nothing): the batch as it stands, by compare-and-set (desk.dispatch.routine)."""
        key = keys.routine_batch(person_id, slot)

        def add(batch: RoutineBatch | None) -> RoutineBatch | None:
            lines = batch.lines if batch else []
            return None if line in lines else RoutineBatch(lines=[*lines, line])

        changed = await self._compare_and_set(RoutineBatch, key, change=add)
        if changed.lost:
            raise ConditionFailed(f"routine batch {key} kept changing under {CAS_TRIES} tries")
        return (changed.after or changed.before or RoutineBatch()).lines
