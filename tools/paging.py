"""What starts a page from a tool: a work order created or raised to `emergency`, an escalation
with urgency `emergency` or `urgent` (ARCHITECTURE.md "People in the loop"). The tool result says
exactly what happened (`OnCall`), so Clara says "I've alerted the on-call team" only when a page
started, and otherwise that nobody was reached automatically."""
from __future__ import annotations

from pydantic import BaseModel, Field

from desk.oncall.paging import PageRequest, PageStart, start_page
from desk.outbound.queue import Notification
from spine.escalation import Escalation
from spine.intent.language import detect_language
from spine.oncall import PageStatus
from spine.work import Priority, WorkOrder
from tools.handlers.base import HandlerContext

PAGING_PRIORITY = Priority.EMERGENCY
PAGING_URGENCIES = frozenset({Priority.EMERGENCY, Priority.URGENT})


class OnCall(BaseModel):
    """The page a tool started, for the model to relay as it is."""

    status: PageStatus  # paging (started now or already running), acknowledged, exhausted, none (no plan)
    paged: list[str] = Field(default_factory=list)  # who was paged first (text and call)
    levels: int = 0
    message: str


def on_call(start: PageStart) -> OnCall:
    if start.status == PageStatus.NONE:
        return OnCall(status=start.status, message=(
            "No on-call plan is set for this property, so nobody was paged automatically. Tell the caller "
            "honestly that the team was not reached automatically, and to call 911 if anyone is in danger."))
    if start.status == PageStatus.ACKNOWLEDGED:
        return OnCall(status=start.status, paged=start.paged, levels=start.levels,
                      message="The on-call page for this was already acknowledged: someone has it.")
    names = ", ".join(start.paged) or "the first level"
    return OnCall(status=start.status, paged=start.paged, levels=start.levels, message=(
        f"The on-call team was paged: {names} by text and phone call now; if nobody acknowledges, the next of "
        f"{start.levels} level(s) is paged in turn. Nobody has acknowledged yet."))


async def page_work_order(ctx: HandlerContext, wo: WorkOrder, *, words: str) -> PageStart:
    unit = ctx.target.unit_number
    request = PageRequest(page_id=f"pg_{wo.id}", property_id=wo.property_id, reason=wo.brief, unit=unit,
                          work_order_id=wo.id, work_order_display_id=wo.display_id,
                          reporter_person_id=wo.created_by_person_id, language=detect_language(words),
                          interaction_id=ctx.caller.interaction_id, channel=ctx.caller.channel)
    return await start_page(ctx.spine, request)


async def page_escalation(ctx: HandlerContext, escalation: Escalation) -> PageStart:
    request = PageRequest(page_id=f"pg_{escalation.id}", property_id=escalation.property_id,
                          reason=escalation.reason[:120], unit=await reporter_unit(ctx), escalation_id=escalation.id,
                          reporter_person_id=escalation.person_id,
                          language=detect_language(f"{escalation.reason} {escalation.summary}"),
                          interaction_id=ctx.caller.interaction_id, channel=ctx.caller.channel)
    return await start_page(ctx.spine, request)


async def reporter_unit(ctx: HandlerContext) -> str | None:
    """The unit an escalation is about: the one the reporter occupies at the property, from their
    roles in the store (an escalation names no unit of its own); None (the page says "unit
    unknown") for a caller with no unit there, or several."""
    if ctx.target.unit_number:
        return ctx.target.unit_number
    numbers = (await ctx.caller.facts(ctx.spine)).unit_numbers
    return next(iter(numbers.values())) if len(numbers) == 1 else None


def notifications_of(start: PageStart | None) -> list[Notification]:
    return list(start.notifications) if start else []
