"""Spine methods and records of a PMS connector's durable work (desk/pms): the webhook inbox's
deliveries and the write-backs to the PMS, one per gateway work order.

Both change only by compare-and-set on the version the writer holds (`_replace_versioned`): a
delivery is accepted once (create-if-absent) and claimed by one worker; a write-back is saved by
one worker, and a lost save is that worker's sign to stop (another has the record)."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel

import spine.keys as keys
from spine.repo.base import RepoBase
from spine.store.base import ABSENT, Item


class InboxEvent(BaseModel):
    """A PMS's webhook delivery, kept from its acceptance until worked (desk/pms/inbox.py)."""
    system: str
    event_id: str
    name: str  # Buildium's EventName, "Lease.Updated"
    ids: dict[str, int]  # the entity's identifiers ("LeaseId": 3001)
    received_at: datetime
    claimed_at: datetime | None = None
    attempts: int = 0
    error: str | None = None
    version: int = 0  # the store's, for compare-and-set claims (not stored)


class WriteBack(BaseModel):
    """What the gateway wrote to the PMS for one work order (desk/pms/writeback.py)."""
    system: str
    work_order_id: str
    lease_id: int
    tenant_id: int
    state: Literal["pending", "written", "failed"] = "pending"
    task_id: int | None = None
    in_doubt: bool = False  # a task create was sent and its answer not recorded
    vendor_id: str | None = None  # the gateway vendor whose PMS work order was written
    pms_work_order_id: int | None = None
    vendor_in_doubt: bool = False
    notes_written: int = 0  # of the work order's notes, how many reached the PMS
    eta_written: str | None = None
    status_from_pms: str | None = None  # the PMS's task status last applied here
    error: str | None = None
    attempts: int = 0
    updated_at: datetime | None = None
    version: int = 0  # the store's (not stored)


def _event_item(event: InboxEvent) -> Item:
    return Item(pk=keys.pms_inbox(event.system), sk=event.event_id,
                data=event.model_dump(mode="json", exclude={"version"}))


def _write_back_item(wb: WriteBack) -> Item:
    return Item(pk=keys.pms_writes(wb.system), sk=keys.pms_write(wb.work_order_id),
                data=wb.model_dump(mode="json", exclude={"version"}))


class PmsRecords(RepoBase):
    async def _write_held(self, item: Item, record: InboxEvent | WriteBack, version: int) -> bool:
        """Write `item` only if its record is still at `version` (ABSENT: new); the record then
        holds the version written, for its writer's next write without a read."""
        written = await self._replace_versioned(item, version)
        if written is None:
            return False
        record.version = written
        return True

    # -- the webhook inbox ------------------------------------------------------------------
    async def create_pms_event(self, event: InboxEvent) -> bool:
        """Keep a new delivery (its version set); False when one with its event id waits already."""
        return await self._write_held(_event_item(event), event, ABSENT)

    async def replace_pms_event(self, event: InboxEvent) -> bool:
        """Write `event` only if it is still at `event.version` (then the new one); False when
        another worker wrote it meanwhile (its claim or outcome stands)."""
        return await self._write_held(_event_item(event), event, event.version)

    async def pms_events(self, system: str, *, limit: int) -> list[InboxEvent]:
        """The deliveries a PMS left waiting, with their versions."""
        items = await self.store.query(keys.pms_inbox(system), "", limit=limit)
        return [InboxEvent.model_validate({**i.data, "version": i.version}) for i in items]

    async def delete_pms_event(self, event: InboxEvent) -> None:
        await self.store.delete(keys.pms_inbox(event.system), event.event_id)

    # -- the write-backs --------------------------------------------------------------------
    async def create_write_back(self, wb: WriteBack) -> bool:
        """Write a new write-back (its version set); False when its work order has one (queued before)."""
        return await self._write_held(_write_back_item(wb), wb, ABSENT)

    async def replace_write_back(self, wb: WriteBack) -> bool:
        """Write `wb` only if it is still at `wb.version` (then the new one); False when another
        worker wrote it meanwhile."""
        return await self._write_held(_write_back_item(wb), wb, wb.version)

    async def link_write_back_task(self, wb: WriteBack) -> None:
        """The task -> work order index a status change made in the PMS reads."""
        await self.store.put(Item(pk=keys.pms_writes(wb.system), sk=keys.pms_write_task(str(wb.task_id)),
                                  data={"work_order_id": wb.work_order_id}))

    async def write_back_of_task(self, system: str, task_id: int) -> WriteBack | None:
        item = await self.store.get(keys.pms_writes(system), keys.pms_write_task(str(task_id)))
        return await self.read_write_back(system, item.data["work_order_id"]) if item else None

    async def read_write_back(self, system: str, work_order_id: str) -> WriteBack | None:
        item = await self.store.get(keys.pms_writes(system), keys.pms_write(work_order_id))
        return WriteBack.model_validate({**item.data, "version": item.version}) if item else None

    async def write_backs(self, system: str) -> list[WriteBack]:
        items = await self.store.query(keys.pms_writes(system), keys.pms_write(""))
        return [WriteBack.model_validate({**i.data, "version": i.version}) for i in items]
