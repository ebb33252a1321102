"""The one outbound path's vocabulary: what the gateway starts (pages, notifications, dispatches,
staff messages), as opposed to a reply to an inbound.

The promise every caller relies on:
- `queue_outbound(spine, request)` is the only way product code asks to reach a person. It runs the
  one "may we contact this person now" check (opt-outs per channel, quiet hours in the property's
  time zone unless `urgent`, and for marketing 08:00-21:00 in the recipient's), chooses the channel (the request's, else the person's last channel,
  else SMS), writes an OutboxMessage row keyed by `request.key` (the same key queues once) and
  answers what happened as a `Notification` (what the trace's `notifications` lists and what a tool
  result tells the model).
- Rows are sent by the gateway's outbox sender, driven by the paging scheduler's tick (one per
  namespace); a PENDING row whose `not_before` is in the future waits for its window.
"""
from __future__ import annotations

from datetime import datetime

from desk.outbound.contact_window import in_window, recipient_zone, sending_opens
from desk.outbound.introduction import carry_introduction, note_introduced, with_introduction
from desk.outbound.may_send import blocked_by
from desk.outbound.purpose import marketing_refusal
from spine.context import Channel
from spine.events import emit_event
from spine.identity import ClaimKind, Person
from spine.notification import Notification, NotificationKind, NotificationStatus, OutboundRequest
from spine.property import Property
from spine.records import EventKind, OutboxMessage, OutboxStatus
from spine.repo import Spine

__all__ = ["Notification", "NotificationKind", "NotificationStatus", "OutboundRequest", "queue_outbound"]

LAST_CHANNELS = frozenset({Channel.SMS, Channel.EMAIL, Channel.TELEGRAM})  # what "their last channel" may be
_CLAIM_OF = {Channel.SMS: ClaimKind.PHONE, Channel.VOICE: ClaimKind.PHONE, Channel.EMAIL: ClaimKind.EMAIL,
             Channel.TELEGRAM: ClaimKind.TELEGRAM}


async def queue_outbound(spine: Spine, request: OutboundRequest) -> Notification:
    """Write the request's outbox row once and say what became of it (see the module's contract)."""
    existing = await spine.get_outbox(request.key)
    if existing is not None:
        return await _again(spine, request, existing)
    person = await spine.get_person(request.recipient_person_id)
    prop = await spine.get_property(request.property_id) if request.property_id else None
    channel, address = await _where(spine, request, person)
    body = await with_introduction(spine, request, person, prop, channel)
    row = OutboxMessage(id=request.key, channel=channel, to_address=address or "", from_address=_sender(prop, channel),
                        body=body, subject=_subject(request, prop, channel), kind=request.kind,
                        recipient_person_id=request.recipient_person_id, property_id=request.property_id,
                        page_id=request.page_id, created_at=spine.clock())
    now = spine.clock()
    blocked = await blocked_by(spine, person, channel, address, row) \
        or await marketing_refusal(spine, request, person, channel, address)
    held_for_window = False
    if blocked is not None:
        row.status, row.error = OutboxStatus.BLOCKED, blocked
    elif not request.urgent and prop is not None and (opens := sending_opens(
            now, request.purpose, prop.timezone, recipient_zone(prop.timezone, channel, address))) > now:
        row.not_before, held_for_window = max(opens, request.not_before or now), True
    else:
        row.not_before = request.not_before
    if not await spine.create_outbox(row):  # another writer of this key won: its row is the answer
        found = await spine.get_outbox(request.key)
        return _notification(found or row, _status(found or row, now, prop))
    # Held for its window (the property's, or a marketing message's recipient's hours): deferred,
    # told with the time it goes; a row only coalescing (its not_before a minute on) is queued.
    status = NotificationStatus.DEFERRED if held_for_window else _status(row, now, prop)
    notification = _notification(row, status, blocked)
    if blocked is None:
        await note_introduced(spine, request, body)
    await _emit(spine, row, notification)
    return notification


async def row_notification(spine: Spine, row: OutboxMessage) -> Notification:
    """What a row queue_outbound wrote stands as now (queued, sent, deferred, blocked)."""
    prop = await spine.get_property(row.property_id) if row.property_id else None
    return _notification(row, _status(row, spine.clock(), prop), row.error)


async def _again(spine: Spine, request: OutboundRequest, row: OutboxMessage) -> Notification:
    """The key was queued before: the same row answers, its body renewed while it still waits."""
    prop = await spine.get_property(row.property_id) if row.property_id else None
    waiting = row.not_before is not None and row.not_before > spine.clock()  # a sender may not take it yet
    body = carry_introduction(row.body, request.body)
    if request.replace_pending and waiting and row.status == OutboxStatus.PENDING and row.body != body:
        renewed = row.model_copy(update={"body": body, "subject": _subject(request, prop, row.channel)})
        replaced = await spine.replace_pending_outbox(renewed)
        row = renewed if replaced else await spine.get_outbox(row.id) or row
    return _notification(row, _status(row, spine.clock(), prop), row.error)


async def _where(spine: Spine, request: OutboundRequest, person: Person | None) -> tuple[Channel, str | None]:
    """The channel (the request's, else the person's last one, else SMS) and their address on it."""
    if person is None:
        return request.channel or Channel.SMS, None
    last = await spine.last_contact(person.id)
    if request.channel is None and last is not None and last.channel in LAST_CHANNELS \
            and _owns(person, last.channel, last.address):
        return last.channel, last.address
    channel = request.channel or Channel.SMS
    if last is not None and _CLAIM_OF.get(last.channel) == _CLAIM_OF.get(channel) and _owns(person, channel, last.address):
        return channel, last.address  # the very number they last wrote from, of several
    kind = _CLAIM_OF.get(channel)
    return channel, next((c.value for c in person.claims if c.kind == kind), None)


def _owns(person: Person, channel: Channel, address: str) -> bool:
    kind = _CLAIM_OF.get(channel)
    return any(c.kind == kind and c.value == address for c in person.claims)


def _sender(prop: Property | None, channel: Channel) -> str:
    if prop is None:
        return ""
    if channel == Channel.SMS:
        return prop.sms_number or prop.voice_number or ""
    if channel == Channel.VOICE:
        return prop.voice_number or prop.sms_number or ""
    if channel == Channel.EMAIL:
        return prop.email or ""
    if channel == Channel.TELEGRAM:
        return prop.telegram_bot_id or ""
    return ""


def _subject(request: OutboundRequest, prop: Property | None, channel: Channel) -> str | None:
    if channel != Channel.EMAIL:
        return None
    return request.subject or (f"A message from {prop.name}" if prop else "A message from Clara")


def _status(row: OutboxMessage, now: datetime, prop: Property | None) -> NotificationStatus:
    if row.status == OutboxStatus.SENT:
        return NotificationStatus.SENT
    if row.status != OutboxStatus.PENDING:
        return NotificationStatus.BLOCKED  # blocked, or the provider refused it (FAILED)
    waiting = row.not_before is not None and row.not_before > now
    if waiting and prop is not None and not in_window(now, prop.timezone):
        return NotificationStatus.DEFERRED
    return NotificationStatus.QUEUED


def _notification(row: OutboxMessage, status: NotificationStatus, reason: str | None = None) -> Notification:
    assert row.kind is not None and row.recipient_person_id is not None  # rows queue_outbound wrote
    return Notification(kind=NotificationKind(row.kind), recipient_person_id=row.recipient_person_id,
                        channel=row.channel, status=status, outbox_id=row.id,
                        not_before=row.not_before if status == NotificationStatus.DEFERRED else None,
                        reason=reason if status == NotificationStatus.BLOCKED else None)


_EVENT_OF = {NotificationStatus.DEFERRED: EventKind.NOTIFY_DEFERRED, NotificationStatus.BLOCKED: EventKind.NOTIFY_BLOCKED}


async def _emit(spine: Spine, row: OutboxMessage, notification: Notification) -> None:
    """notify/sent (dispatch/sent) when queued, notify/deferred or notify/blocked otherwise; a page
    queued is the pager's to announce (oncall/paged)."""
    kind = _EVENT_OF.get(notification.status)
    if kind is None:
        if notification.kind == NotificationKind.PAGE:
            return
        kind = EventKind.DISPATCH_SENT if notification.kind == NotificationKind.DISPATCH else EventKind.NOTIFY_SENT
    detail = {"kind": notification.kind, "recipient_person_id": notification.recipient_person_id,
              "outbox_id": row.id}
    if notification.not_before is not None:
        detail["not_before"] = notification.not_before.isoformat()
    await emit_event(spine, kind, notification.reason or notification.status, channel=row.channel,
                     address=row.to_address or None, property_id=row.property_id, interaction_id=None, detail=detail)
