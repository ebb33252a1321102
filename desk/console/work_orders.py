"""Staff change a work order from the console: status, priority, vendor and a note, any subset.

Each changed field is recorded on the work order with the signed-in person (`changes`), a note
carries its author, and the tenant hears exactly as they do of a vendor's change
(desk.dispatch.notices.save_with_notice). A new vendor gets the work order as pm_assign_vendor
sends it (desk.dispatch.dispatch.start_dispatch), so a vendor hears of work one way only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from desk.dispatch.dispatch import start_dispatch
from desk.dispatch.notices import save_with_notice
from spine.notification import Notification
from spine.repo import Spine
from spine.work import WorkOrder, WorkOrderEdit, WorkOrderStatus


class EditRefused(ValueError):
    """A change the work order cannot take (a vendor that does not serve its property)."""


@dataclass(frozen=True, slots=True)
class StaffEdit:
    status: WorkOrderStatus | None = None
    priority: str | None = None
    vendor_id: str | None = None
    note: str | None = None


@dataclass(slots=True)
class EditOutcome:
    work_order: WorkOrder
    changed: list[str] = field(default_factory=list)  # the fields that moved, and "note"
    notifications: list[Notification] = field(default_factory=list)


def _set(wo: WorkOrder, name: str, attr: str, value: str | None, by: str) -> str | None:
    before = getattr(wo, attr)
    if value is None or value == before:
        return None
    setattr(wo, attr, value)
    wo.changes.append(WorkOrderEdit(at=wo.updated_at, by_person_id=by, field=name,
                                    before=None if before is None else str(before), after=str(value)))
    return name


async def _check_vendor(spine: Spine, wo: WorkOrder, vendor_id: str) -> None:
    vendor = await spine.get_vendor(vendor_id)
    if vendor is None or wo.property_id not in vendor.services_property_ids:
        raise EditRefused(f"vendor {vendor_id!r} does not service {wo.property_id}")


async def edit_work_order(spine: Spine, wo: WorkOrder, edit: StaffEdit, *, by: str) -> EditOutcome:
    """Apply `edit` as `by` (the signed-in person): write it, tell the tenant, dispatch a new vendor."""
    if edit.vendor_id and edit.vendor_id != wo.assigned_vendor_id:
        await _check_vendor(spine, wo, edit.vendor_id)
    before = (wo.status, wo.eta)
    wo.updated_at = spine.clock()
    changed = [name for name in (
        _set(wo, "status", "status", edit.status, by),
        _set(wo, "priority", "priority", edit.priority, by),
        _set(wo, "vendor_id", "assigned_vendor_id", edit.vendor_id, by)) if name]
    if "vendor_id" in changed and edit.status is None and wo.status == WorkOrderStatus.OPEN:
        _set(wo, "status", "status", WorkOrderStatus.DISPATCHED, by)  # as pm_assign_vendor does
        changed.append("status")
    note = edit.note.strip() if edit.note else ""
    if note:
        changed.append("note")
    if not changed:
        return EditOutcome(wo)
    told = await save_with_notice(spine, wo, before, changed_by=by, note=note or None)
    if "vendor_id" in changed and wo.assigned_vendor_id:
        told += await start_dispatch(spine, wo, wo.assigned_vendor_id, by_person_id=by)
    return EditOutcome(wo, changed, told)
