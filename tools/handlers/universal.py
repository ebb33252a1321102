"""Universal catalog: escalate_to_human, for every caller including unknown ones."""
from __future__ import annotations

import secrets
from typing import Literal

from pydantic import BaseModel, Field

from desk.outbound.queue import Notification
from spine.escalation import Escalation
from spine.work import Priority
from tools.handlers.base import HandlerContext, Tool
from tools.paging import PAGING_URGENCIES, OnCall, notifications_of, on_call, page_escalation
from tools.schema import ToolInput


class EscalateIn(ToolInput):
    reason: str = Field(min_length=1, max_length=500, description="Why a person is needed")
    urgency: Literal["normal", "urgent", "emergency"] = "normal"
    summary: str | None = Field(None, max_length=2000, description="What the staff member should know")


class EscalateOut(BaseModel):
    escalation_id: str
    status: str
    message: str
    on_call: OnCall | None = None  # the page an urgent or emergency escalation started
    notifications: list[Notification] = Field(default_factory=list)


async def escalate_to_human(ctx: HandlerContext, args: EscalateIn) -> EscalateOut:
    caller = ctx.caller
    escalation = Escalation(
        id=f"esc_{secrets.token_hex(6)}", org_id=ctx.target.org_id or caller.org_id or "",
        property_id=caller.property_id, person_id=caller.person_id, channel=str(caller.channel),
        interaction_id=caller.interaction_id, reason=args.reason, urgency=Priority(args.urgency), summary=args.summary or "",
    )
    await ctx.spine.put_escalation(escalation)
    if args.urgency in PAGING_URGENCIES:
        page = await page_escalation(ctx, escalation)
        if page.page_id:  # the console shows the page's state beside the escalation
            await ctx.spine.change_escalation(escalation.id, lambda e: e.model_copy(update={"page_id": page.page_id}))
        paged = on_call(page)
        return EscalateOut(escalation_id=escalation.id, status=escalation.status, message=paged.message,
                           on_call=paged, notifications=notifications_of(page))
    return EscalateOut(escalation_id=escalation.id, status=escalation.status, message=(
        "Recorded for the property team to follow up; nobody was messaged or called about it now."))


TOOLS = [
    Tool("escalate_to_human", "Hand the conversation to the property team (a person will follow up).",
         EscalateIn, escalate_to_human),
]
