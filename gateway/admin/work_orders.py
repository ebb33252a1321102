"""The staff console's work-order board: `GET /admin/api/work_orders`, one work order with its notes
and changes, and staff changing it (`POST /admin/api/work_orders/{display_id}`).

Scoped as escalations are (gateway.admin.console_scope): a property named, else the whole orgs'
boards plus the single properties'; a work order outside the scope is 404, a viewer's change 403.
A change is desk.console.work_orders.edit_work_order's: the signed-in person recorded on each
field and note, an event, and the tenant's notice as for a vendor's change.
"""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from pydantic import BaseModel, Field

from desk.console.work_orders import EditRefused, StaffEdit, edit_work_order
from gateway.admin.auth import require_admin, signed_in
from gateway.admin.console_scope import ConsoleScope, console_scope
from gateway.context import GatewayContext
from spine.events import emit_event
from spine.notification import Notification
from spine.records import EventKind
from spine.repo import Spine
from spine.work import WorkOrder, WorkOrderPmsLink, WorkOrderStatus
from tools.ids import InvalidWorkOrderId, work_order_key

api = APIRouter()

DEFAULT_LIMIT, MAX_LIMIT = 50, 500
Priority = Literal["normal", "urgent", "emergency"]


class WorkOrderRow(BaseModel):
    id: str
    display_id: str
    property_id: str
    unit: str | None
    brief: str
    status: WorkOrderStatus
    priority: str
    vendor_id: str | None
    reporter_person_id: str | None
    created_at: datetime
    updated_at: datetime
    pms: WorkOrderPmsLink | None


class PersonRef(BaseModel):
    id: str
    name: str | None


class NoteView(BaseModel):
    at: datetime
    text: str
    by: PersonRef | None


class ChangeView(BaseModel):
    at: datetime
    field: str
    before: str | None
    after: str | None
    by: PersonRef | None


class WorkOrderDetail(WorkOrderRow):
    description: str
    eta: str | None
    notes: list[NoteView]
    changes: list[ChangeView]
    notifications: list[Notification] = Field(default_factory=list)  # what a change queued


class WorkOrderEditIn(BaseModel):
    status: WorkOrderStatus | None = None
    priority: Priority | None = None
    vendor_id: str | None = Field(None, max_length=60)
    note: str | None = Field(None, max_length=2000)


async def row(spine: Spine, wo: WorkOrder) -> WorkOrderRow:
    unit = await spine.get_unit(wo.unit_id) if wo.unit_id else None  # reference data, cached
    return WorkOrderRow(id=wo.id, display_id=wo.display_id, property_id=wo.property_id,
                        unit=unit.number if unit else wo.unit_id, brief=wo.brief, status=wo.status,
                        priority=wo.priority, vendor_id=wo.assigned_vendor_id,
                        reporter_person_id=wo.created_by_person_id, created_at=wo.created_at,
                        updated_at=wo.updated_at, pms=wo.pms)


async def _person(spine: Spine, person_id: str | None, known: dict[str, PersonRef]) -> PersonRef | None:
    if person_id is None:
        return None
    if person_id not in known:
        person = await spine.get_person(person_id)
        known[person_id] = PersonRef(id=person_id, name=person.display_name if person else None)
    return known[person_id]


async def detail(spine: Spine, wo: WorkOrder, notifications: list[Notification] | None = None) -> WorkOrderDetail:
    known: dict[str, PersonRef] = {}
    notes = [NoteView(at=n.at, text=n.text, by=await _person(spine, n.author_person_id, known)) for n in wo.notes]
    changes = [ChangeView(at=c.at, field=c.field, before=c.before, after=c.after,
                          by=await _person(spine, c.by_person_id, known)) for c in wo.changes]
    return WorkOrderDetail(**(await row(spine, wo)).model_dump(), description=wo.description, eta=wo.eta,
                           notes=notes, changes=changes, notifications=notifications or [])


async def board(spine: Spine, scope: ConsoleScope, property_id: str | None, status: WorkOrderStatus | None,
                priority: str | None, limit: int) -> list[WorkOrder]:
    """The boards the scope reads: one property's, or the whole orgs' plus the single properties'."""
    if property_id:
        scope.check_read(property_id)
        return await spine.work_order_board(property_ids=[property_id], status=status, priority=priority, limit=limit)
    return await spine.work_order_board(property_ids=sorted(scope.singles), org_ids=sorted(scope.whole_orgs),
                                        status=status, priority=priority, limit=limit)


async def work_order_in_scope(spine: Spine, scope: ConsoleScope, display_id: str) -> WorkOrder:
    try:
        wo = await spine.get_work_order(work_order_key(display_id))
    except InvalidWorkOrderId:
        wo = None
    if wo is None or wo.property_id not in scope.reads:
        raise HTTPException(404, f"no work order {display_id!r} in your properties")
    return wo


@api.get("/work_orders")
async def list_work_orders(request: Request, property_id: str | None = None, status: WorkOrderStatus | None = None,
                           priority: Priority | None = None, limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT),
                           ctx: GatewayContext = Depends(require_admin)) -> dict[str, list[WorkOrderRow]]:
    scope = await console_scope(ctx, request)
    found = await board(ctx.spine, scope, property_id, status, priority, limit)
    return {"work_orders": [await row(ctx.spine, wo) for wo in found]}


@api.get("/work_orders/{display_id}")
async def get_work_order(request: Request, display_id: str,
                         ctx: GatewayContext = Depends(require_admin)) -> WorkOrderDetail:
    scope = await console_scope(ctx, request)
    return await detail(ctx.spine, await work_order_in_scope(ctx.spine, scope, display_id))


@api.post("/work_orders/{display_id}")
async def change_work_order(request: Request, display_id: str, body: WorkOrderEditIn,
                            ctx: GatewayContext = Depends(require_admin)) -> WorkOrderDetail:
    identity = signed_in(request)
    scope = await console_scope(ctx, request)
    wo = await work_order_in_scope(ctx.spine, scope, display_id)
    scope.check_act({wo.property_id})
    try:
        outcome = await edit_work_order(ctx.spine, wo, StaffEdit(**body.model_dump()), by=identity.id)
    except EditRefused as refused:
        raise HTTPException(422, str(refused)) from refused
    if outcome.changed:
        await emit_event(ctx.spine, EventKind.WORK_ORDER_CHANGED, identity.id, channel=None, address=None,
                         property_id=wo.property_id, interaction_id=None,
                         detail={"work_order_id": wo.id, "display_id": wo.display_id, "by": identity.id,
                                 "changed": outcome.changed})
        queued = [n.outbox_id for n in outcome.notifications if n.outbox_id and n.status == "queued"]
        if queued:
            ctx.pool.send_soon(queued)  # the tenant hears now, not at the scheduler's next tick
    return await detail(ctx.spine, outcome.work_order, outcome.notifications)
