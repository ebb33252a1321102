"""What the follow-ups due by a moment would do then, and why, writing nothing (`gateway followups
due`): the same checks the scheduler's step makes (desk.followups.engine), read-only."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from pydantic import BaseModel

from desk.followups.engine import stop_reason, window_opens
from desk.followups.records import body_of
from desk.outbound.may_send import opted_out
from spine.context import Channel
from spine.followup import FollowUp
from spine.repo import Spine

PREVIEW_READ = 1000


class DuePreview(BaseModel):
    followup_id: str
    kind: str
    purpose: str
    person_id: str
    name: str | None
    property_id: str
    due_at: datetime
    follows: str
    action: str  # send | stop | wait
    why: str
    channel: str | None = None
    body: str | None = None


async def preview_due(spine: Spine, at: datetime, property_id: str | None = None) -> list[DuePreview]:
    found = await spine.due_followups(at, limit=PREVIEW_READ)
    return [await _preview(spine, fu, at) for fu, _ in found if property_id in (None, fu.property_id)]


async def _preview(spine: Spine, fu: FollowUp, at: datetime) -> DuePreview:
    person = await spine.get_person(fu.person_id)
    seen = DuePreview(followup_id=fu.id, kind=fu.kind, purpose=fu.purpose, person_id=fu.person_id,
                      name=person.display_name if person else None, property_id=fu.property_id, due_at=fu.due_at,
                      follows=f"{fu.follows} {fu.follows_id}", action="stop", why="")
    prop = await spine.get_property(fu.property_id)
    if (reason := await stop_reason(spine, fu, at)) is not None or prop is None:
        return seen.model_copy(update={"why": reason or "property gone"})
    if (opens_at := await window_opens(spine, fu, prop, at)) > at:
        opens = opens_at.astimezone(ZoneInfo(prop.timezone))
        return seen.model_copy(update={"action": "wait", "why": f"outside the contact window; goes {opens:%a %H:%M} local"})
    channel, address = await _channel(spine, fu.person_id)
    if address is None:
        return seen.model_copy(update={"why": f"no {channel} address on file"})
    if await spine.is_opted_out(address, channel):
        return seen.model_copy(update={"why": opted_out(channel)})
    body = await body_of(spine, fu, prop)
    return seen.model_copy(update={"action": "send", "why": f"due {fu.kind}, in the window, reachable",
                                   "channel": channel, "body": body})


async def _channel(spine: Spine, person_id: str) -> tuple[Channel, str | None]:
    """Where queue_outbound would send it: their last channel, else SMS to the number on file."""
    last = await spine.last_contact(person_id)
    if last is not None and last.channel in (Channel.SMS, Channel.EMAIL, Channel.TELEGRAM):
        return last.channel, last.address
    person = await spine.get_person(person_id)
    phones = person.phones() if person else []
    return Channel.SMS, phones[0] if phones else None
