"""Staff taking a conversation over, writing to the person, and handing it back to Clara.

Each action changes the person's conversation head by compare-and-set (spine.repo.conversations),
carries the staff identity and leaves an event. A staff message goes through the one outbound
path (`queue_outbound`, kind `staff`) on the person's last channel, keyed by the staff request so
a retried send queues once; writing takes the conversation over if it was not already.
"""
from __future__ import annotations

import secrets

from pydantic import BaseModel

import spine.keys as keys
from desk.outbound.queue import Notification, NotificationKind, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage, Mode, Takeover
from spine.events import emit_event
from spine.identity import utcnow
from spine.records import EventKind, TranscriptEntry
from spine.repo import Spine


class StaffMessageSent(BaseModel):
    message: ConversationMessage
    notification: Notification
    started: bool  # this message took the conversation over


async def take_over(spine: Spine, person_id: str, staff_id: str, *, release_after_s: float,
                    property_id: str | None = None) -> Conversation:
    """Clara stops answering the person (idempotent: a second call only renews the staff window).
    `property_id`: where the conversation is, when the person has not written yet."""
    now, started = utcnow(), list[bool]()

    def change(current: Conversation | None) -> Conversation:
        started.clear()
        head = current or Conversation(person_id=person_id)
        head.property_id = head.property_id or property_id
        if head.mode(now) == Mode.STAFF and head.takeover is not None:
            head.takeover.last_staff_at, head.takeover.staff_person_id = now, staff_id
        else:
            head.takeover = Takeover(staff_person_id=staff_id, started_at=now, last_staff_at=now,
                                     release_after_s=release_after_s)
            started.append(True)
        head.unread = 0  # the staff member is looking at it
        return head

    head = await spine.change_conversation(person_id, change)
    assert head is not None
    if started:
        await _event(spine, EventKind.TAKEOVER_STARTED, "staff", head, staff_id)
    return head


async def hand_back(spine: Spine, person_id: str, staff_id: str) -> Conversation | None:
    """Clara answers again, with what was said meanwhile in her transcript (actors.host.conversation_log)."""
    ended: list[bool] = []

    def change(current: Conversation | None) -> Conversation | None:
        ended.clear()
        if current is None or current.takeover is None or current.mode() != Mode.STAFF:
            return None
        current.takeover.ended_at, current.takeover.ended_by = utcnow(), staff_id
        ended.append(True)
        return current

    head = await spine.change_conversation(person_id, change)
    if head is not None and ended:
        await _event(spine, EventKind.TAKEOVER_ENDED, "handback", head, staff_id)
    return head


async def send_staff_message(spine: Spine, person_id: str, staff_id: str, text: str, *, request_id: str | None = None,
                             release_after_s: float, property_id: str | None = None) -> StaffMessageSent:
    """Write to the person on their last channel, through the one outbox; takes the conversation over."""
    head = await spine.get_conversation(person_id)
    request_id = request_id or secrets.token_hex(8)
    was_staff = head is not None and head.mode() == Mode.STAFF
    head = await take_over(spine, person_id, staff_id, release_after_s=release_after_s, property_id=property_id)
    notification = await queue_outbound(spine, OutboundRequest(
        key=keys.staff_message_notice(person_id, request_id), kind=NotificationKind.STAFF, recipient_person_id=person_id,
        property_id=head.property_id, body=text, urgent=True))  # their last channel: queue_outbound knows it
    message = ConversationMessage(id=f"staff-{request_id}", person_id=person_id, property_id=head.property_id,
                                  channel=notification.channel or head.last_channel or Channel.SMS, author=Author.STAFF,
                                  staff_person_id=staff_id, text=text)
    await spine.put_message(message)
    name = await _staff_name(spine, staff_id)

    def remember(current: Conversation | None) -> Conversation | None:
        if current is None or current.takeover is None:
            return None
        current.takeover.remember(TranscriptEntry(role="agent", text=f"[{name}, staff] {text}"))
        return current

    await spine.change_conversation(person_id, remember)
    await _event(spine, EventKind.STAFF_MESSAGE, str(notification.status), head, staff_id,
                 {"outbox_id": notification.outbox_id})
    return StaffMessageSent(message=message, notification=notification, started=not was_staff)


async def _staff_name(spine: Spine, staff_id: str) -> str:
    person = await spine.get_person(staff_id)
    return person.display_name if person else staff_id


async def _event(spine: Spine, kind: EventKind, reason: str, head: Conversation, staff_id: str,
                 detail: dict[str, object] | None = None) -> None:
    await emit_event(spine, kind, reason, channel=head.last_channel, address=None, property_id=head.property_id,
                     interaction_id=None, detail={"person_id": head.person_id, "staff_person_id": staff_id,
                                                  **(detail or {})})
