"""Universal catalog: escalate_to_human, for every caller including unknown ones."""
from __future__ import annotations

import secrets
from typing import Literal

from pydantic import BaseModel, Field

from spine.escalation import Escalation
from spine.notification import Notification, NotificationStatus
from tools.handlers.base import HandlerContext, Tool
from tools.schema import ToolInput


class EscalateIn(ToolInput):
    reason: str = Field(min_length=1, max_length=500, description="Why a person is needed")
    urgency: Literal["normal", "urgent", "emergency"] = "normal"
    summary: str | None = Field(None, max_length=2000, description="What the staff member should know")


class EscalateOut(BaseModel):
    escalation_id: str
    status: str
    message: str
    notifications: list[Notification] = Field(default_factory=list)  # the page or staff messages it queued


TEAM_TOLD = "The property team has been notified and will follow up."
TEAM_NOT_TOLD = ("The request is recorded for the property team (on their escalations list); no one has been "
                 "messaged about it yet, so do not say anyone was notified.")


def team_message(notifications: list[Notification]) -> str:
    """'Notified' only when a page or a staff message was queued (or sent) for it."""
    reached = any(n.status in (NotificationStatus.QUEUED, NotificationStatus.SENT) for n in notifications)
    return TEAM_TOLD if reached else TEAM_NOT_TOLD


async def escalate_to_human(ctx: HandlerContext, args: EscalateIn) -> EscalateOut:
    caller = ctx.caller
    escalation = Escalation(
        id=f"esc_{secrets.token_hex(6)}", org_id=ctx.target.org_id or caller.org_id or "",
        property_id=caller.property_id, person_id=caller.person_id, channel=str(caller.channel),
        interaction_id=caller.interaction_id, reason=args.reason, urgency=args.urgency, summary=args.summary or "",
    )
    await ctx.spine.put_escalation(escalation)
    told: list[Notification] = []
    return EscalateOut(escalation_id=escalation.id, status=escalation.status, message=team_message(told),
                       notifications=told)


TOOLS = [
    Tool("escalate_to_human", "Hand the conversation to the property team (a person will follow up).",
         EscalateIn, escalate_to_human),
]
