"""PM catalog: staff tools across the inbound property's organization."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, Field

from desk.dispatch.dispatch import start_dispatch
from desk.followups.plans import plan_renewal_offer
from desk.outbound.queue import Notification
from spine.work import RenewalOffer, RenewalStatus, RenewalWorkflow, Tour, TourStatus, WorkOrderStatus
from tools.handlers.base import (
    Ack,
    HandlerContext,
    Tool,
    ToolFailure,
    new_work_order,
    target_work_order,
    work_order_field,
)
from tools.handlers.views import WorkOrderChange, WorkOrderSummary, summarize, work_order_view
from tools.paging import PAGING_PRIORITY, OnCall, notifications_of, on_call, page_work_order
from tools.people import PersonMatch, lookup_people
from tools.schema import ToolInput


class LookupIn(ToolInput):
    phone: str | None = Field(None, max_length=32)
    name: str | None = Field(None, max_length=120)
    unit: str | None = Field(None, max_length=16, description="Unit number: who are its tenants")


class LookupOut(BaseModel):
    matches: list[PersonMatch]


async def pm_lookup_person(ctx: HandlerContext, args: LookupIn) -> LookupOut:
    if not (args.phone or args.name or args.unit):
        raise ToolFailure("give a phone number, a name or a unit to look up")
    return LookupOut(matches=await lookup_people(ctx.spine, ctx.target.org_id or "", phone=args.phone,
                                                 name=args.name, unit=args.unit, within=ctx.target.within))


class ListOpenIn(ToolInput):
    property_id: str | None = Field(None, max_length=60, description="Defaults to the inbound property")


class OpenWorkOrders(BaseModel):
    property_id: str
    work_orders: list[WorkOrderSummary]


async def pm_list_open_work_orders(ctx: HandlerContext, args: ListOpenIn) -> OpenWorkOrders:
    property_id = ctx.target.property_id or ctx.caller.property_id
    open_wos = [wo for wo in await ctx.spine.work_orders_at(property_id) if wo.is_open]
    open_wos.sort(key=lambda wo: wo.created_at)
    views = [summarize(await work_order_view(ctx.spine, wo, with_notes=False)) for wo in open_wos]
    return OpenWorkOrders(property_id=property_id, work_orders=views)


class PmCreateIn(ToolInput):
    unit: str = Field(max_length=16, description="Unit number, e.g. 204")
    description: str = Field(min_length=1, max_length=2000)
    brief: str | None = Field(None, max_length=120)
    priority: Literal["normal", "urgent", "emergency"] = "normal"
    property_id: str | None = Field(None, max_length=60, description="Defaults to the inbound property")


class PmCreated(WorkOrderSummary):
    on_call: OnCall | None = None  # the page an emergency started (None: no page was needed)
    notifications: list[Notification] = Field(default_factory=list)


async def pm_create_work_order(ctx: HandlerContext, args: PmCreateIn) -> PmCreated:
    wo = await new_work_order(ctx, description=args.description, brief=args.brief, priority=args.priority)
    page = await page_work_order(ctx, wo, words=args.description) if wo.priority == PAGING_PRIORITY else None
    summary = summarize(await work_order_view(ctx.spine, wo, with_notes=False))
    return PmCreated(**summary.model_dump(), on_call=on_call(page) if page else None,
                     notifications=notifications_of(page))


class AssignIn(ToolInput):
    work_order_id: str = work_order_field()
    vendor_id: str = Field(max_length=60, description="Vendor id, e.g. v_carlos")


async def pm_assign_vendor(ctx: HandlerContext, args: AssignIn) -> WorkOrderChange:
    wo = await target_work_order(ctx)
    if not wo.is_open:
        raise ToolFailure(f"{wo.display_id} is {wo.status}; reopen it before assigning")
    vendor = await ctx.spine.get_vendor(args.vendor_id)
    if vendor is None:
        raise ToolFailure(f"no vendor {args.vendor_id}")
    if wo.property_id not in vendor.services_property_ids:
        raise ToolFailure(f"{vendor.name} does not service {wo.property_id}")
    wo.assigned_vendor_id, wo.status = vendor.id, WorkOrderStatus.DISPATCHED
    await ctx.spine.note_work_order(wo, ctx.caller.person_id, f"Assigned to {vendor.name}", updated_at=ctx.spine.clock())
    sent = await start_dispatch(ctx.spine, wo, vendor.id, by_person_id=ctx.caller.person_id)
    summary = summarize(await work_order_view(ctx.spine, wo, with_notes=False))
    return WorkOrderChange(**summary.model_dump(), notifications=sent)


class CloseIn(ToolInput):
    work_order_id: str = work_order_field()
    resolution: str | None = Field(None, max_length=1000)


async def pm_close_work_order(ctx: HandlerContext, args: CloseIn) -> Ack:
    wo = await target_work_order(ctx)
    if wo.status == WorkOrderStatus.CLOSED:
        return Ack(message=f"{wo.display_id} was already closed")
    wo.status = WorkOrderStatus.CLOSED
    await ctx.spine.note_work_order(wo, ctx.caller.person_id, f"Closed: {args.resolution}" if args.resolution else "Closed",
                                    updated_at=ctx.spine.clock())
    return Ack(message=f"{wo.display_id} closed")


class RenewalIn(ToolInput):
    unit: str = Field(max_length=16, description="Unit number, e.g. 204")
    term_months: int = Field(ge=1, le=36)
    monthly_rent_usd: int = Field(ge=1, le=100000)


class RenewalSent(BaseModel):
    renewal_id: str
    unit: str | None
    status: str
    offers: list[RenewalOffer]
    # The offer's follow-ups to the primary signer, 90/60/30 days before the lease ends (kind `followup`).
    notifications: list[Notification] = Field(default_factory=list)


async def pm_send_renewal(ctx: HandlerContext, args: RenewalIn) -> RenewalSent:
    unit_id = ctx.target.unit_id or ""
    lease = await ctx.spine.current_lease(unit_id)
    if lease is None:
        raise ToolFailure(f"unit {ctx.target.unit_number} has no lease to renew")
    offered = [w for w in await ctx.spine.renewals_of_unit(unit_id) if w.status == RenewalStatus.OFFERED]
    if offered:
        workflow = offered[-1]
    else:
        number = await ctx.spine.next_sequence("renewal")
        workflow = RenewalWorkflow(id=f"rw_{unit_id}_{number}", unit_id=unit_id, lease_id=lease.id)
    offer = RenewalOffer(term_months=args.term_months, monthly_rent_usd=args.monthly_rent_usd)
    workflow.offers = sorted([o for o in workflow.offers if o.term_months != args.term_months] + [offer],
                             key=lambda o: -o.term_months)
    await ctx.spine.put_renewal(workflow)
    planned = await plan_renewal_offer(ctx.spine, workflow, ctx.caller.property_id, now=ctx.spine.clock(),
                                       interaction_id=ctx.caller.interaction_id)
    return RenewalSent(renewal_id=workflow.id, unit=ctx.target.unit_number, status=workflow.status,
                       offers=workflow.offers, notifications=planned)


class ListToursIn(ToolInput):
    day: date | Literal["today", "tomorrow"] = Field(
        "today", description="The first day: YYYY-MM-DD, or today / tomorrow at the property")
    days: int = Field(1, ge=1, le=14, description="How many days from `day`: 1 for that day, 7 for a week")
    property_id: str | None = Field(None, max_length=60, description="Defaults to the inbound property")


class TourEntry(BaseModel):
    tour_id: str
    scheduled_at: datetime  # in the property's local time
    unit: str | None
    prospect: str  # the prospect's name as on file
    status: TourStatus


class ToursListed(BaseModel):
    property_id: str
    property_name: str
    first_day: date
    last_day: date
    tours: list[TourEntry]


async def pm_list_tours(ctx: HandlerContext, args: ListToursIn) -> ToursListed:
    prop = await ctx.spine.get_property(ctx.target.property_id or ctx.caller.property_id)
    if prop is None:
        raise ToolFailure(f"property {ctx.target.property_id} is not on file")
    zone = ZoneInfo(prop.timezone)
    today = ctx.spine.clock().astimezone(zone).date()  # "today" is the property's, not the server's
    first = today if args.day == "today" else today + timedelta(days=1) if args.day == "tomorrow" else args.day
    booked = [t for t in await ctx.spine.tours_at(prop.id, first, args.days) if t.status != TourStatus.CANCELLED]
    return ToursListed(property_id=prop.id, property_name=prop.name, first_day=first,
                       last_day=first + timedelta(days=args.days - 1),
                       tours=[await _tour_entry(ctx, tour, zone) for tour in booked])


async def _tour_entry(ctx: HandlerContext, tour: Tour, zone: ZoneInfo) -> TourEntry:
    person = await ctx.spine.get_person(tour.prospect_person_id)
    unit = await ctx.spine.get_unit(tour.unit_id) if tour.unit_id else None
    return TourEntry(tour_id=tour.id, scheduled_at=tour.scheduled_at.astimezone(zone),
                     unit=unit.number if unit else None, prospect=person.display_name if person else "a prospect",
                     status=tour.status)


TOOLS = [
    Tool("pm_lookup_person", "Find a person in this organization by phone, name or unit, with their roles.",
         LookupIn, pm_lookup_person),
    Tool("pm_list_open_work_orders", "Open work orders at a property of this organization.",
         ListOpenIn, pm_list_open_work_orders),
    Tool("pm_create_work_order", "Open a work order for any unit in this organization.",
         PmCreateIn, pm_create_work_order),
    Tool("pm_assign_vendor", "Assign (or reassign) a vendor to a work order; it becomes dispatched.",
         AssignIn, pm_assign_vendor),
    Tool("pm_close_work_order", "Close a work order, with an optional resolution note.", CloseIn, pm_close_work_order),
    Tool("pm_send_renewal", "Offer a lease renewal term and rent to a unit (adds to an open offer).",
         RenewalIn, pm_send_renewal),
    Tool("pm_list_tours", "Tours booked at a property of this organization for a day or a few days, in time order.",
         ListToursIn, pm_list_tours),
]
