"""Vendor catalog: acting on work orders assigned to the caller's vendor."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from desk.dispatch.dispatch import handed_back, settle_by_tool
from desk.dispatch.notices import save_with_notice
from spine.notification import Notification
from spine.work import WorkOrder, WorkOrderStatus
from tools.handlers.base import HandlerContext, Tool, ToolFailure, target_work_order, work_order_field
from tools.handlers.views import WorkOrderChange, WorkOrderView, summarize, work_order_view
from tools.schema import ToolInput

ETA = Field(max_length=80, description="When the vendor will be there, e.g. 'today 3pm'")


async def _save(ctx: HandlerContext, wo: WorkOrder, note: str | None, before: tuple[str, str | None]) -> WorkOrderChange:
    """Write the change; a new ETA or a move to scheduled, in progress or completed tells the tenant."""
    wo.updated_at = ctx.spine.clock()
    told = await save_with_notice(ctx.spine, wo, before, changed_by=ctx.caller.person_id, note=note)
    summary = summarize(await work_order_view(ctx.spine, wo, with_notes=False))
    return WorkOrderChange(**summary.model_dump(), notifications=told)


def _ensure_open(wo: WorkOrder) -> None:
    if not wo.is_open:
        raise ToolFailure(f"{wo.display_id} is {wo.status}; it can no longer be changed")


class AcceptIn(ToolInput):
    work_order_id: str = work_order_field()
    eta: str | None = Field(None, max_length=80, description="When the vendor will be there")


async def accept_dispatch(ctx: HandlerContext, args: AcceptIn) -> WorkOrderChange:
    wo = await target_work_order(ctx)
    _ensure_open(wo)
    before = (wo.status, wo.eta)
    if wo.status in (WorkOrderStatus.OPEN, WorkOrderStatus.DISPATCHED):
        wo.status = WorkOrderStatus.SCHEDULED
    if args.eta:
        wo.eta = args.eta
    await settle_by_tool(ctx.spine, wo, wo.assigned_vendor_id, ctx.caller.person_id)  # the YES it stands for
    return await _save(ctx, wo, "Dispatch accepted" + (f", ETA {args.eta}" if args.eta else ""), before)


class UpdateIn(ToolInput):
    work_order_id: str = work_order_field()
    status: Literal["scheduled", "in_progress", "completed"] | None = None
    note: str | None = Field(None, max_length=1000)
    eta: str | None = Field(None, max_length=80)


async def update_work_order(ctx: HandlerContext, args: UpdateIn) -> WorkOrderChange:
    if args.status is None and args.note is None and args.eta is None:
        raise ToolFailure("nothing to update: give a status, a note or an ETA")
    wo = await target_work_order(ctx)
    _ensure_open(wo)
    before = (wo.status, wo.eta)
    if args.status:
        wo.status = WorkOrderStatus(args.status)
    if args.eta:
        wo.eta = args.eta
    return await _save(ctx, wo, args.note, before)


class EtaIn(ToolInput):
    work_order_id: str = work_order_field()
    eta: str = ETA
    note: str | None = Field(None, max_length=500)


async def add_eta_note(ctx: HandlerContext, args: EtaIn) -> WorkOrderChange:
    wo = await target_work_order(ctx)
    _ensure_open(wo)
    before = (wo.status, wo.eta)
    wo.eta = args.eta
    return await _save(ctx, wo, f"ETA {args.eta}" + (f": {args.note}" if args.note else ""), before)


class DispatchIn(ToolInput):
    work_order_id: str = work_order_field()


class DispatchDetails(WorkOrderView):
    property_name: str
    property_address: str


async def get_dispatch_details(ctx: HandlerContext, args: DispatchIn) -> DispatchDetails:
    wo = await target_work_order(ctx)
    view = await work_order_view(ctx.spine, wo)
    prop = await ctx.spine.get_property(wo.property_id)
    return DispatchDetails(**view.model_dump(), property_name=prop.name if prop else wo.property_id,
                           property_address=prop.address if prop else "")


class HandoffIn(ToolInput):
    work_order_id: str = work_order_field()
    reason: str = Field(min_length=1, max_length=500)
    suggested_vendor_id: str | None = Field(None, max_length=60)


class HandoffOut(BaseModel):
    work_order_id: str
    status: str
    message: str
    notifications: list[Notification] = Field(default_factory=list)  # the managers told


async def handoff_to_other_vendor(ctx: HandlerContext, args: HandoffIn) -> HandoffOut:
    wo = await target_work_order(ctx)
    _ensure_open(wo)
    previous = wo.assigned_vendor_id
    # Unassigned and reopened: a PM picks the next vendor (pm_assign_vendor).
    wo.assigned_vendor_id, wo.status, wo.eta = None, WorkOrderStatus.OPEN, None
    suggestion = f"; suggested {args.suggested_vendor_id}" if args.suggested_vendor_id else ""
    await _save(ctx, wo, f"Handed off by {previous}: {args.reason}{suggestion}", (wo.status, wo.eta))
    told = await handed_back(ctx.spine, wo, previous, ctx.caller.person_id, args.reason)
    reached = any(n.status in ("queued", "sent") for n in told)
    return HandoffOut(work_order_id=wo.display_id, status=wo.status, notifications=told, message=(
        "Handed back to the property team to assign another vendor; " +
        ("the managers have been told." if reached else "no manager could be messaged, it is on their list.")))


TOOLS = [
    Tool("accept_dispatch", "Accept a work order dispatched to the vendor, optionally with an ETA.",
         AcceptIn, accept_dispatch),
    Tool("update_work_order", "Update an assigned work order: status, a note, or the ETA.",
         UpdateIn, update_work_order),
    Tool("add_eta_note", "Set the ETA on an assigned work order, with an optional note.", EtaIn, add_eta_note),
    Tool("get_dispatch_details", "Details of an assigned work order: unit, address, description, notes.",
         DispatchIn, get_dispatch_details),
    Tool("handoff_to_other_vendor", "Give an assigned work order back so another vendor can take it.",
         HandoffIn, handoff_to_other_vendor),
]
