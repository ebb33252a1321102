"""Staff taking a conversation over, writing to the person, and handing it back to Clara.

A takeover is of one conversation, the person's at one property: Clara still answers them at every
other property. Whether the staff member may act there is the caller's to check (the console's
scope). Each action changes that conversation head by compare-and-set (spine.repo.conversations),
carries the staff identity and leaves an event. A staff message goes through the one outbound
path (`queue_outbound`, kind `staff`) on the person's last channel, from the conversation's property,
keyed by the staff request so a retried send queues once; writing takes the conversation over if it
was not already.
"""
from __future__ import annotations

import secrets
from datetime import datetime

from pydantic import BaseModel

import spine.keys as keys
from desk.outbound.queue import Notification, NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage, Mode, Takeover
from spine.events import emit_event
from spine.identity import utcnow
from spine.records import EventKind, TranscriptEntry
from spine.repo import Spine
from spine.staff_access import staff_may_act

ACCESS_LOST = "access-lost"  # why a takeover ended: its staff member may no longer act at the property


class StaffMessageSent(BaseModel):
    message: ConversationMessage
    notification: Notification
    started: bool  # this message took the conversation over


async def take_over(spine: Spine, person_id: str, property_id: str, staff_id: str, *,
                    release_after_s: float) -> Conversation:
    """Clara stops answering the person at the property (idempotent: a second call only renews the
    staff window)."""
    now, started = utcnow(), list[bool]()

    def change(current: Conversation | None) -> Conversation:
        started.clear()
        head = current or Conversation(person_id=person_id, property_id=property_id)
        if head.mode(now) == Mode.STAFF and head.takeover is not None:
            head.takeover.last_staff_at, head.takeover.staff_person_id = now, staff_id
        else:
            head.takeover = Takeover(staff_person_id=staff_id, started_at=now, last_staff_at=now,
                                     release_after_s=release_after_s)
            started.append(True)
        head.unread = 0  # the staff member is looking at it
        return head

    head = await spine.change_conversation(person_id, property_id, change)
    assert head is not None
    if started:
        await _event(spine, EventKind.TAKEOVER_STARTED, "staff", head, staff_id)
        await spine.bump(property_id, "handoffs")  # the reports: a conversation went to a person
    return head


async def hand_back(spine: Spine, person_id: str, property_id: str, staff_id: str) -> Conversation | None:
    """Clara answers again, with what was said meanwhile in her transcript (actors.host.conversation_log)."""
    ended: list[bool] = []

    def change(current: Conversation | None) -> Conversation | None:
        ended.clear()
        if current is None or current.takeover is None or current.mode() != Mode.STAFF:
            return None
        current.takeover.ended_at, current.takeover.ended_by = utcnow(), staff_id
        ended.append(True)
        return current

    head = await spine.change_conversation(person_id, property_id, change)
    if head is not None and ended:
        await _event(spine, EventKind.TAKEOVER_ENDED, "handback", head, staff_id)
    return head


async def send_staff_message(spine: Spine, person_id: str, property_id: str, staff_id: str, text: str, *,
                             request_id: str | None = None, urgent: bool = False,
                             release_after_s: float) -> StaffMessageSent:
    """Write to the person on their last channel, from the property, through the one outbox; takes the
    conversation over. A routine message keeps the contact window (`urgent` sends it at once). The
    conversation records what was queued: a retried request (the same `request_id`) shows the text
    its first try queued, and a message the contact check blocked is not shown as said."""
    head = await spine.get_conversation(person_id, property_id)
    request_id = request_id or secrets.token_hex(8)
    was_staff = head is not None and head.mode() == Mode.STAFF
    head = await take_over(spine, person_id, property_id, staff_id, release_after_s=release_after_s)
    key = keys.staff_message_notice(person_id, property_id, request_id)
    retried = await spine.get_outbox(key) is not None  # recorded by its first try, as that try queued it
    notification = await queue_outbound(spine, OutboundRequest(
        key=key, kind=NotificationKind.STAFF, recipient_person_id=person_id, property_id=property_id, body=text,
        urgent=urgent, from_clara=False))  # their last channel: queue_outbound knows it; the staff's own words
    row = await spine.get_outbox(key)
    message = ConversationMessage(id=f"staff-{property_id}-{request_id}", person_id=person_id,
                                  property_id=property_id, at=row.created_at if row else utcnow(),
                                  channel=notification.channel or head.last_channel or Channel.SMS,
                                  author=Author.STAFF, staff_person_id=staff_id, text=row.body if row else text)
    if not retried and notification.status != NotificationStatus.BLOCKED:
        await _remember(spine, message)
    await _event(spine, EventKind.STAFF_MESSAGE, str(notification.status), head, staff_id,
                 {"outbox_id": notification.outbox_id})
    return StaffMessageSent(message=message, notification=notification, started=not was_staff)


async def _remember(spine: Spine, message: ConversationMessage) -> None:
    """The staff message in the conversation and in what Clara reads back on resuming; it answers
    the person (the reports' first response, from what they waited since, kept on the head)."""
    name = await _staff_name(spine, message.staff_person_id or "")
    waited: datetime | None = None

    def remember(current: Conversation | None) -> Conversation | None:
        nonlocal waited
        if current is None or current.takeover is None:
            return None
        waited = current.answered()
        current.takeover.remember(TranscriptEntry(role="agent", text=f"[{name}, staff] {message.text}"))
        return current

    await spine.change_conversation(message.person_id, message.property_id, remember, note=False)
    await spine.put_message(message, waited_since=waited)


async def taker_lost_access(spine: Spine, head: Conversation) -> Conversation | None:
    """End an active takeover whose staff member may no longer act at its property (their staff
    role ended or no longer reaches it): what the person says next must not be held for, or texted
    to, someone who lost access. The head as ended, or None when the takeover still holds."""
    takeover = head.takeover
    if takeover is None or not takeover.active():
        return None
    if await staff_may_act(spine, takeover.staff_person_id, head.property_id):
        return None
    staff_id = takeover.staff_person_id

    def end(current: Conversation | None) -> Conversation | None:
        if current is None or current.takeover is None or current.takeover.staff_person_id != staff_id \
                or not current.takeover.active():
            return None
        current.takeover.ended_at, current.takeover.ended_by = utcnow(), ACCESS_LOST
        return current

    ended = await spine.change_conversation(head.person_id, head.property_id, end)
    if ended is not None and ended.takeover is not None and ended.takeover.ended_by == ACCESS_LOST:
        await _event(spine, EventKind.TAKEOVER_ENDED, ACCESS_LOST, ended, staff_id)
    return ended


async def _staff_name(spine: Spine, staff_id: str) -> str:
    person = await spine.get_person(staff_id)
    return person.display_name if person else staff_id


async def _event(spine: Spine, kind: EventKind, reason: str, head: Conversation, staff_id: str,
                 detail: dict[str, object] | None = None) -> None:
    await emit_event(spine, kind, reason, channel=head.last_channel, address=None, property_id=head.property_id,
                     interaction_id=None, detail={"person_id": head.person_id, "staff_person_id": staff_id,
                                                  **(detail or {})})
