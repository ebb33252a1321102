"""Write-back to the PMS, exactly once: one durable record per gateway work order at a PMS unit.

`queue_write_back` writes the record when the work order is opened (tools' new_work_order); the
scheduler's PMS tick then writes the task, the vendor's work order, notes and the ETA
(gateway.pms.buildium.writeback) and keeps here what it wrote. Before a create is sent the
record says so (`in_doubt`): a create that timed out, or a worker that died mid-call, leaves it
set, and the next attempt looks the task up in the PMS (found: recorded, not created again)."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel

import spine.keys as keys
from spine.identity import PersonRoleType, utcnow
from spine.repo import Spine
from spine.store.base import ABSENT, ConditionFailed, Item
from spine.work import WorkOrder

# A resident role the PMS sync made: its id names the lease and tenant (desk.pms.buildium.mapping).
_RESIDENT = re.compile(r"^tr_(?P<system>[a-z]+)_lease-(?P<lease>\d+)-tenant-(?P<tenant>\d+)$")


class WriteBack(BaseModel):
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


def _item(wb: WriteBack) -> Item:
    return Item(pk=keys.pms_writes(wb.system), sk=keys.pms_write(wb.work_order_id),
                data=wb.model_dump(mode="json", exclude={"version"}))


async def queue_write_back(spine: Spine, wo: WorkOrder) -> WriteBack | None:
    """The record for a work order a PMS tenant opened at their PMS unit; None for any other."""
    if not wo.created_by_person_id or not wo.unit_id:
        return None
    for role in await spine.roles_of(wo.created_by_person_id):
        found = _RESIDENT.match(role.id)
        if role.role_type == PersonRoleType.TENANT and role.active and role.scope.unit_id == wo.unit_id and found:
            wb = WriteBack(system=found["system"], work_order_id=wo.id, lease_id=int(found["lease"]),
                           tenant_id=int(found["tenant"]), updated_at=utcnow())
            try:
                wb.version = (await spine.store.put(_item(wb), expect_version=ABSENT)).version
            except ConditionFailed:
                return None  # queued before
            return wb
    return None


async def save(spine: Spine, wb: WriteBack) -> bool:
    """Compare-and-set on the record's version: False when another worker wrote it meanwhile."""
    wb.updated_at = utcnow()
    try:
        wb.version = (await spine.store.put(_item(wb), expect_version=wb.version)).version
    except ConditionFailed:
        return False
    return True


async def link_task(spine: Spine, wb: WriteBack) -> None:
    """The task -> work order index a status change made in the PMS reads."""
    await spine.store.put(Item(pk=keys.pms_writes(wb.system), sk=keys.pms_write_task(str(wb.task_id)),
                               data={"work_order_id": wb.work_order_id}))


async def of_task(spine: Spine, system: str, task_id: int) -> WriteBack | None:
    item = await spine.store.get(keys.pms_writes(system), keys.pms_write_task(str(task_id)))
    return await load(spine, system, item.data["work_order_id"]) if item else None


async def load(spine: Spine, system: str, work_order_id: str) -> WriteBack | None:
    item = await spine.store.get(keys.pms_writes(system), keys.pms_write(work_order_id))
    return WriteBack.model_validate({**item.data, "version": item.version}) if item else None


async def all_of(spine: Spine, system: str) -> list[WriteBack]:
    items = await spine.store.query(keys.pms_writes(system), keys.pms_write(""))
    return [WriteBack.model_validate({**i.data, "version": i.version}) for i in items]
