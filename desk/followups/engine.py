"""The scheduler's follow-up step: find the due follow-ups with one Query per index shard, and take each once.

Each due follow-up is, in order: stopped if something stops it (the record it follows changed, a
takeover, a reply since `reply_since`), moved to when the window opens if it falls outside the
contact window (the next 09:00 local; marketing also keeps the TCPA's hours in the recipient's
zone), else queued through `queue_outbound` under its own outbox key and then marked
`sent` by compare-and-set. Queue first, mark second: a scheduler killed between the two leaves it
pending, and the next tick queues the same key again, which finds the row it wrote (never a second
message, never a skipped one). Two schedulers racing both reach that one row; one CAS wins.
An opt-out is the one check's answer: a row `queue_outbound` blocks stops the follow-up.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

import spine.keys as keys
from desk.followups.records import body_of, record_changed
from desk.outbound.contact_window import recipient_zone, sending_opens
from desk.outbound.queue import NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.conversation import Author, ConversationMessage, Mode
from spine.events import emit_event
from spine.followup import FollowUp, FollowUpStatus, StopOn
from spine.notification import Purpose
from spine.property import Property
from spine.records import EventKind
from spine.repo import Spine
from spine.repo.followups import DUE_READ


class Step(StrEnum):
    SENT = "sent"
    STOPPED = "stopped"
    MOVED = "moved"  # outside the contact window: due again when it opens
    LOST = "lost"  # another scheduler changed it first; its outcome stands


async def run_due(spine: Spine, now: datetime | None = None, *, limit: int = DUE_READ) -> list[Step]:
    """One tick's follow-ups: every pending one due by `now` (one Query per shard), each taken once."""
    now = now or spine.clock()
    return [await take_step(spine, fu, version, now) for fu, version in await spine.due_followups(now, limit=limit)]


async def stop_reason(spine: Spine, fu: FollowUp, now: datetime) -> str | None:
    """Why this follow-up should not go, or None (the opt-out is queue_outbound's to answer)."""
    if StopOn.RECORD_CHANGED in fu.stop_on and (changed := await record_changed(spine, fu)):
        return changed
    if fu.expires_at is not None and now >= fu.expires_at:
        return "expired"
    if StopOn.TAKEOVER in fu.stop_on:
        head = await spine.get_conversation(fu.person_id, fu.property_id)
        if head is not None and head.mode(now) == Mode.STAFF:
            return "takeover"
    if StopOn.REPLY in fu.stop_on and fu.reply_since is not None:
        last = await spine.last_contact(fu.person_id)
        if last is not None and last.at > fu.reply_since:
            return "replied"
    return None


async def window_opens(spine: Spine, fu: FollowUp, prop: Property, now: datetime) -> datetime:
    """When the follow-up may go (`now` if it may go now): the contact window in the property's
    zone; marketing also 08:00-21:00 in the recipient's, the zone of the number they last wrote
    from (marketing goes only there), read only for marketing."""
    zone = prop.timezone
    if fu.purpose == Purpose.MARKETING and (last := await spine.last_contact(fu.person_id)) is not None:
        zone = recipient_zone(prop.timezone, last.channel, last.address)
    return sending_opens(now, fu.purpose, prop.timezone, zone)


async def take_step(spine: Spine, fu: FollowUp, version: int, now: datetime) -> Step:
    if (reason := await stop_reason(spine, fu, now)) is not None:
        return await stop(spine, fu, version, reason)
    prop = await spine.get_property(fu.property_id)
    if prop is None:
        return await stop(spine, fu, version, "property gone")
    if (opens := await window_opens(spine, fu, prop, now)) > now:
        if fu.expires_at is not None and opens >= fu.expires_at:
            return await stop(spine, fu, version, "expired")  # the window opens too late for it
        later = fu.model_copy(update={"due_at": opens, "moved": fu.moved + 1})
        return Step.MOVED if await spine.replace_followup(later, version) else Step.LOST
    body = await body_of(spine, fu, prop)
    if body is None:
        return await stop(spine, fu, version, "record gone")
    note = await queue_outbound(spine, OutboundRequest(
        key=keys.followup_outbox(fu.id), kind=NotificationKind.FOLLOWUP, recipient_person_id=fu.person_id,
        property_id=fu.property_id, body=body, subject=f"{prop.name}: a note from Clara", purpose=fu.purpose))
    if note.status == NotificationStatus.BLOCKED:
        return await stop(spine, fu, version, f"blocked: {note.reason}")
    sent = fu.model_copy(update={"status": FollowUpStatus.SENT, "sent_at": now, "outbox_id": note.outbox_id})
    if not await spine.replace_followup(sent, version):
        return Step.LOST
    if note.channel is not None:  # the console and Clara's next turn see what she said
        await spine.put_message(ConversationMessage(id=note.outbox_id or fu.id, person_id=fu.person_id,
                                                    property_id=fu.property_id, at=now, channel=note.channel,
                                                    author=Author.CLARA, text=body))
    await _event(spine, EventKind.FOLLOWUP_SENT, fu.kind, sent)
    return Step.SENT


async def stop(spine: Spine, fu: FollowUp, version: int, reason: str) -> Step:
    """End a follow-up without sending it (`followup/stopped`, its reason)."""
    stopped = fu.model_copy(update={"status": FollowUpStatus.STOPPED, "stopped_reason": reason})
    if not await spine.replace_followup(stopped, version):
        return Step.LOST
    await _event(spine, EventKind.FOLLOWUP_STOPPED, reason, stopped)
    return Step.STOPPED


async def _event(spine: Spine, kind: EventKind, reason: str, fu: FollowUp) -> None:
    await emit_event(spine, kind, reason, channel=None, address=None, property_id=fu.property_id,
                     interaction_id=fu.created_by_interaction_id,
                     detail={"followup_id": fu.id, "kind": fu.kind, "person_id": fu.person_id,
                             "follows": f"{fu.follows}:{fu.follows_id}"})
