"""Write-back to the PMS, exactly once: one durable record per gateway work order at a PMS unit.

`queue_write_back` writes the record when the work order is opened (tools' new_work_order); the
scheduler's PMS tick then writes the task, the vendor's work order, notes and the ETA
(gateway.pms.buildium.writeback) and keeps here what it wrote. Before a create is sent the
record says so (`in_doubt`): a create that timed out, or a worker that died mid-call, leaves it
set, and the next attempt looks the task up in the PMS (found: recorded, not created again)."""
from __future__ import annotations

import re

from spine.identity import PersonRoleType, utcnow
from spine.repo import Spine
from spine.repo.pms import WriteBack
from spine.work import WorkOrder

__all__ = ["WriteBack", "all_of", "link_task", "load", "of_task", "queue_write_back", "save"]

# A resident role the PMS sync made: its id names the lease and tenant (desk.pms.buildium.mapping).
_RESIDENT = re.compile(r"^tr_(?P<system>[a-z]+)_lease-(?P<lease>\d+)-tenant-(?P<tenant>\d+)$")


async def queue_write_back(spine: Spine, wo: WorkOrder) -> WriteBack | None:
    """The record for a work order a PMS tenant opened at their PMS unit; None for any other."""
    if not wo.created_by_person_id or not wo.unit_id:
        return None
    for role in await spine.roles_of(wo.created_by_person_id):
        found = _RESIDENT.match(role.id)
        if role.role_type == PersonRoleType.TENANT and role.active and role.scope.unit_id == wo.unit_id and found:
            wb = WriteBack(system=found["system"], work_order_id=wo.id, lease_id=int(found["lease"]),
                           tenant_id=int(found["tenant"]), updated_at=utcnow())
            return wb if await spine.create_write_back(wb) else None  # None: queued before
    return None


async def save(spine: Spine, wb: WriteBack) -> bool:
    """Compare-and-set on the record's version: False when another worker wrote it meanwhile."""
    wb.updated_at = utcnow()
    return await spine.replace_write_back(wb)


async def link_task(spine: Spine, wb: WriteBack) -> None:
    """The task -> work order index a status change made in the PMS reads."""
    await spine.link_write_back_task(wb)


async def of_task(spine: Spine, system: str, task_id: int) -> WriteBack | None:
    return await spine.write_back_of_task(system, task_id)


async def load(spine: Spine, system: str, work_order_id: str) -> WriteBack | None:
    return await spine.read_write_back(system, work_order_id)


async def all_of(spine: Spine, system: str) -> list[WriteBack]:
    return await spine.write_backs(system)
