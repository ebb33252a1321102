"""Result shapes several catalogs share (a work order as a tenant, vendor or PM reads it)."""
from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, Field

from spine.notification import Notification
from spine.repo import Spine
from spine.work import WorkOrder


class NoteView(BaseModel):
    at: datetime
    text: str


class WorkOrderView(BaseModel):
    work_order_id: str
    status: str
    brief: str
    description: str = ""
    priority: str = "normal"
    property_id: str
    unit: str | None = None
    vendor: str | None = None
    eta: str | None = None
    rating: int | None = None
    notes: list[NoteView] = Field(default_factory=list)
    photo_urls: list[str] = Field(default_factory=list)
    created_at: datetime
    updated_at: datetime


async def work_order_view(spine: Spine, wo: WorkOrder, *, with_notes: bool = True) -> WorkOrderView:
    unit = await spine.get_unit(wo.unit_id) if wo.unit_id else None
    vendor = await spine.get_vendor(wo.assigned_vendor_id) if wo.assigned_vendor_id else None
    return WorkOrderView(
        work_order_id=wo.display_id, status=wo.status, brief=wo.brief, description=wo.description,
        priority=wo.priority, property_id=wo.property_id, unit=unit.number if unit else None,
        vendor=vendor.name if vendor else None, eta=wo.eta, rating=wo.rating,
        notes=[NoteView(at=n.at, text=n.text) for n in wo.notes] if with_notes else [],
        photo_urls=wo.photo_urls, created_at=wo.created_at, updated_at=wo.updated_at,
    )


class WorkOrderSummary(BaseModel):
    work_order_id: str
    status: str
    brief: str
    unit: str | None = None
    vendor: str | None = None
    eta: str | None = None
    priority: str = "normal"


class WorkOrderChange(WorkOrderSummary):
    """A work order after a change, and exactly what the change queued for other people (the
    tenant's notice, a vendor's dispatch): queued, deferred to the contact window, or blocked."""

    notifications: list[Notification] = Field(default_factory=list)


def summarize(view: WorkOrderView) -> WorkOrderSummary:
    return WorkOrderSummary(work_order_id=view.work_order_id, status=view.status, brief=view.brief,
                            unit=view.unit, vendor=view.vendor, eta=view.eta, priority=view.priority)
