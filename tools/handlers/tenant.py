"""Tenant catalog, maintenance side: work orders, appliances, photos, ratings, troubleshooting."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from desk.dispatch.routine import tell_team_of_routine
from desk.outbound.queue import Notification
from spine.property import Appliance
from spine.records import last4
from spine.work import Priority, WorkOrder, WorkOrderStatus
from tools.handlers.base import (
    Ack,
    HandlerContext,
    Tool,
    ToolFailure,
    new_work_order,
    target_work_order,
    unit_field,
    unverified_callback,
    work_order_field,
)
from tools.handlers.troubleshooting import find_guide
from tools.handlers.views import WorkOrderView, work_order_view
from tools.paging import PAGING_PRIORITY, OnCall, notifications_of, on_call, page_work_order
from tools.schema import ToolInput

PriorityIn = Literal["normal", "urgent", "emergency"]  # the tool's schema: spine.work.Priority's values


class CreateWorkOrderIn(ToolInput):
    description: str = Field(min_length=1, max_length=2000, description="The problem, in the tenant's words")
    brief: str | None = Field(None, max_length=120, description="Short title, e.g. 'running toilet'")
    unit: str | None = unit_field()
    priority: PriorityIn = Field("normal", description="emergency only for active danger or damage")
    access_notes: str | None = Field(None, max_length=500, description="Entry permission, pets, best times")


# Nobody has accepted a routine work order when it is opened: the words must not say anyone has it.
ROUTINE_LOGGED = ("Logged for the property's maintenance team, who are told in their next batch; nobody has accepted "
                  "it yet. Tell the tenant it is logged and that they'll get a text when it's scheduled; never say "
                  "that someone has it or is on it.")


class WorkOrderCreated(BaseModel):
    work_order_id: str
    status: str
    unit: str | None
    brief: str
    priority: str
    added_to_existing: bool = False  # the report matched an open work order of the unit: it went there
    message: str | None = None
    on_call: OnCall | None = None  # the page an emergency started (None: no page was needed)
    notifications: list[Notification] = Field(default_factory=list)


async def create_work_order(ctx: HandlerContext, args: CreateWorkOrderIn) -> WorkOrderCreated:
    callback = await unverified_callback(ctx)
    if callback is not None:
        return await _create_unverified(ctx, args, callback)
    existing = await _matching_open(ctx, args)
    if existing is not None:
        # The same problem reported again (a minute later, or by a roommate) adds to the open one.
        raised = Priority(args.priority).rank > existing.priority.rank
        if raised:
            existing.priority = Priority(args.priority)
        await ctx.spine.note_work_order(existing, ctx.caller.person_id, f"Reported again: {args.description[:500]}",
                                        updated_at=ctx.spine.clock())
        page = await page_work_order(ctx, existing, words=args.description) \
            if raised and existing.priority == PAGING_PRIORITY else None
        return WorkOrderCreated(work_order_id=existing.display_id, status=existing.status,
                                unit=ctx.target.unit_number, brief=existing.brief, priority=existing.priority,
                                added_to_existing=True, on_call=on_call(page) if page else None,
                                notifications=notifications_of(page))
    wo = await new_work_order(ctx, description=args.description, brief=args.brief, priority=args.priority,
                              notes=[f"Access: {args.access_notes}"] if args.access_notes else [])
    if wo.priority == PAGING_PRIORITY:
        page = await page_work_order(ctx, wo, words=args.description)
        return WorkOrderCreated(work_order_id=wo.display_id, status=wo.status, unit=ctx.target.unit_number,
                                brief=wo.brief, priority=wo.priority, on_call=on_call(page),
                                notifications=notifications_of(page))
    return WorkOrderCreated(work_order_id=wo.display_id, status=wo.status, unit=ctx.target.unit_number,
                            brief=wo.brief, priority=wo.priority, message=ROUTINE_LOGGED,
                            notifications=await tell_team_of_routine(ctx.spine, wo))


async def _create_unverified(ctx: HandlerContext, args: CreateWorkOrderIn, callback: str) -> WorkOrderCreated:
    """A report from a phone call whose caller is not verified: always a new work order (an open one
    of the unit is neither shown nor changed), marked to be confirmed with the number on file before
    anyone acts on it, access instructions included."""
    ending = last4(callback)
    notes = [f"Reported on a phone call whose caller was not verified (caller ID only). Call the number on "
             f"file ending {ending} to confirm before acting on it."]
    if args.access_notes:
        notes.append(f"Access, as the unverified caller said (confirm first, do not act on it): {args.access_notes}")
    wo = await new_work_order(ctx, description=args.description, brief=args.brief, priority=args.priority,
                              notes=notes, confirm_by_callback=callback)
    # An emergency pages the on-call team even unverified: a gas leak cannot wait for a code.
    page = await page_work_order(ctx, wo, words=args.description) if wo.priority == PAGING_PRIORITY else None
    return WorkOrderCreated(
        work_order_id=wo.display_id, status=wo.status, unit=ctx.target.unit_number, brief=wo.brief,
        priority=wo.priority, on_call=on_call(page) if page else None, notifications=notifications_of(page),
        message=f"Filed for the team, who will confirm it with the number on file ending "
        f"{ending} before anyone acts on it (this call is not verified). Tell the caller so.")


# Words that say what is wrong, not what it is wrong with: sharing only these is not the same problem.
_GENERIC = frozenset("a an the my our is it its in on of and with at to for from again still keeps broken leak leaking "
                     "leaks dripping drip running clogged jammed not working stopped won't doesn't noisy smells "
                     "overflowing repair needs request maintenance problem issue unit apartment kitchen bathroom "
                     "please help fix under over through into near by behind".split())


def _subjects(text: str) -> set[str]:
    return {w.strip(".,!?;:()'\"").lower() for w in text.split()} - _GENERIC - {""}


async def _matching_open(ctx: HandlerContext, args: CreateWorkOrderIn) -> WorkOrder | None:
    """An open work order of the same unit whose brief names the same thing (toilet, window, heater)."""
    if not ctx.target.unit_id or not ctx.target.property_id:
        return None
    wanted = _subjects(args.brief or args.description[:80])
    for wo in await ctx.spine.work_orders_of_unit(ctx.target.property_id, ctx.target.unit_id):
        if wo.is_open and wanted & _subjects(wo.brief):
            return wo
    return None


class UnitIn(ToolInput):
    unit: str | None = unit_field()


class AppliancesOut(BaseModel):
    unit: str
    appliances: list[Appliance]


async def get_unit_appliances(ctx: HandlerContext, args: UnitIn) -> AppliancesOut:
    unit = await ctx.spine.get_unit(ctx.target.unit_id or "")
    if unit is None:
        raise ToolFailure(f"unit {ctx.target.unit_number} is not on file")
    return AppliancesOut(unit=unit.number, appliances=unit.appliances)


class RequestPhotoIn(ToolInput):
    reason: str = Field(min_length=1, max_length=300, description="What the photo should show")
    unit: str | None = unit_field()
    work_order_id: str | None = work_order_field("Work order the photo is for, e.g. WO-7", optional=True)


async def request_photo(ctx: HandlerContext, args: RequestPhotoIn) -> Ack:
    where = ""
    if ctx.target.work_order_id:
        wo = await target_work_order(ctx)
        wo.photo_request = args.reason
        await ctx.spine.note_work_order(wo, ctx.caller.person_id, f"Photo requested: {args.reason}", updated_at=ctx.spine.clock())
        where = f" It will be attached to {wo.display_id}."
    return Ack(message=f"Ask the tenant to reply with a photo showing: {args.reason}.{where}")


class WorkOrderIn(ToolInput):
    work_order_id: str = work_order_field()


async def get_work_order_detail(ctx: HandlerContext, args: WorkOrderIn) -> WorkOrderView:
    return await work_order_view(ctx.spine, await target_work_order(ctx))


class RatingIn(ToolInput):
    work_order_id: str = work_order_field()
    stars: int = Field(ge=1, le=5, description="1 (poor) to 5 (excellent)")
    comment: str | None = Field(None, max_length=1000)


RATEABLE = frozenset({WorkOrderStatus.COMPLETED, WorkOrderStatus.CLOSED})


async def submit_rating(ctx: HandlerContext, args: RatingIn) -> Ack:
    wo = await target_work_order(ctx)
    if wo.status not in RATEABLE:
        raise ToolFailure(f"{wo.display_id} is {wo.status}; it can be rated once the work is completed")
    wo.rating = args.stars
    await ctx.spine.note_work_order(wo, ctx.caller.person_id, args.comment and f"Rating comment: {args.comment}",
                                    updated_at=None)  # a rating is no change of the work
    return Ack(message=f"Rated {wo.display_id} {args.stars}/5. Thank you.")


class TroubleshootIn(ToolInput):
    issue: str = Field(min_length=1, max_length=500, description="The symptom, e.g. 'toilet keeps running'")
    appliance: str | None = Field(None, max_length=60)


class TroubleshootOut(BaseModel):
    topic: str
    steps: list[str]
    stop_and_report_if: str


async def get_troubleshooting_steps(ctx: HandlerContext, args: TroubleshootIn) -> TroubleshootOut:
    guide = find_guide(args.issue, args.appliance)
    return TroubleshootOut(topic=guide.topic, steps=list(guide.steps), stop_and_report_if=guide.stop_if)


TOOLS = [
    Tool("create_work_order", "Open a maintenance work order for the tenant's unit. Returns its id (WO-n).",
         CreateWorkOrderIn, create_work_order),
    Tool("get_unit_appliances", "List the appliances in the tenant's unit (kind, brand, model).",
         UnitIn, get_unit_appliances),
    Tool("request_photo", "Ask the tenant for a photo of the problem, optionally for a work order.",
         RequestPhotoIn, request_photo),
    Tool("get_work_order_detail", "Full detail of one of the tenant's work orders: status, notes, vendor, ETA.",
         WorkOrderIn, get_work_order_detail),
    Tool("submit_rating", "Record the tenant's 1-5 star rating of completed work.", RatingIn, submit_rating),
    Tool("get_troubleshooting_steps", "Safe self-serve steps for a common maintenance problem.",
         TroubleshootIn, get_troubleshooting_steps),
]
