"""The one outbound path's vocabulary: what the gateway starts (pages, notifications, dispatches,
staff messages), as opposed to a reply to an inbound.

CONTRACT (written before the work was split between two sessions; keep the names):
- `queue_outbound(spine, request)` is the only way product code asks to reach a person. It runs the
  one "may we contact this person now" check (opt-outs per channel, quiet hours in the property's
  time zone unless `urgent`), chooses the channel (the request's, else the person's last channel,
  else SMS), writes an OutboxMessage row keyed by `request.key` (the same key queues once) and
  answers what happened as a `Notification` (what the trace's `notifications` lists and what a tool
  result tells the model).
- Rows are sent by the gateway's outbox sender, driven by the paging scheduler's tick (one per
  namespace); a PENDING row whose `not_before` is in the future waits for its window.
"""
from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel

from spine.context import Channel
from spine.identity import ClaimKind, Person
from spine.property import Property
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine


class NotificationKind(StrEnum):
    PAGE = "page"
    NOTIFY = "notify"
    DISPATCH = "dispatch"
    STAFF = "staff"


class NotificationStatus(StrEnum):
    QUEUED = "queued"      # written to the outbox, goes out at the next tick
    SENT = "sent"          # the provider accepted it
    DEFERRED = "deferred"  # waits for the recipient's next contact window (09:00-19:00 local)
    BLOCKED = "blocked"    # may not be sent: opted out on that channel, no address, deceased, spam


class OutboundRequest(BaseModel):
    key: str  # idempotency: one row per key, across retries, restarts and replicas
    kind: NotificationKind
    recipient_person_id: str
    property_id: str | None = None  # whose number/address it goes out from, whose time zone applies
    body: str
    subject: str | None = None  # email
    channel: Channel | None = None  # None: the person's last channel (SMS, email, Telegram), else SMS
    urgent: bool = False  # an emergency: ignores the contact window (never an opt-out)
    page_id: str | None = None  # a page's text or call: not sent once the page has stopped


class Notification(BaseModel):
    """One entry of the trace's `notifications` and of a tool result: what was queued for whom."""

    kind: NotificationKind
    recipient_person_id: str
    channel: Channel | None
    status: NotificationStatus
    outbox_id: str | None = None


_CLAIM_OF = {Channel.SMS: ClaimKind.PHONE, Channel.VOICE: ClaimKind.PHONE, Channel.EMAIL: ClaimKind.EMAIL,
             Channel.TELEGRAM: ClaimKind.TELEGRAM}
_LAST_CHANNELS = frozenset({Channel.SMS, Channel.EMAIL, Channel.TELEGRAM})


def _from_address(prop: Property | None, channel: Channel) -> str | None:
    if prop is None:
        return None
    return {Channel.SMS: prop.sms_number or prop.voice_number, Channel.VOICE: prop.voice_number or prop.sms_number,
            Channel.EMAIL: prop.email, Channel.TELEGRAM: prop.telegram_bot_id}.get(channel)


async def _channel_of(spine: Spine, request: OutboundRequest) -> Channel:
    if request.channel is not None:
        return request.channel
    context = await spine.get_context(request.recipient_person_id)
    last = context.active.last_channel if context else None
    return last if last in _LAST_CHANNELS else Channel.SMS


def _address(person: Person | None, channel: Channel) -> str | None:
    kind = _CLAIM_OF.get(channel)
    if person is None or person.deceased or kind is None:
        return None
    return next((c.value for c in person.claims if c.kind == kind), None)


async def queue_outbound(spine: Spine, request: OutboundRequest) -> Notification:
    """Write the request's outbox row once (keyed by `request.key`) and say what happened.

    A minimal version (the paging half's; the notifications half brings the contact windows): a
    call (channel `voice`) ignores SMS opt-outs, a text, email or Telegram message to an opted-out
    address is written SUPPRESSED and answered BLOCKED, and so is one with no address to reach."""
    existing = await spine.get_outbox(request.key)
    if existing is not None:
        return _notification(request, existing)
    channel = await _channel_of(spine, request)
    prop = await spine.get_property(request.property_id) if request.property_id else None
    to = _address(await spine.get_person(request.recipient_person_id), channel)
    row = OutboxMessage(id=request.key, channel=channel, to_address=to or "", from_address=_from_address(prop, channel)
                        or "", body=request.body, subject=request.subject, kind=request.kind,
                        recipient_person_id=request.recipient_person_id, property_id=request.property_id,
                        page_id=request.page_id)
    if not to or not row.from_address:
        row.status, row.error = OutboxStatus.SUPPRESSED, "no address to reach the person on this channel"
    elif channel != Channel.VOICE and await spine.is_opted_out(to):
        row.status, row.error = OutboxStatus.SUPPRESSED, f"recipient opted out of {channel}"
    if not await spine.create_outbox(row):
        row = await spine.get_outbox(request.key) or row
    return _notification(request, row)


def _notification(request: OutboundRequest, row: OutboxMessage) -> Notification:
    status = {OutboxStatus.SENT: NotificationStatus.SENT, OutboxStatus.SUPPRESSED: NotificationStatus.BLOCKED,
              OutboxStatus.FAILED: NotificationStatus.BLOCKED}.get(row.status, NotificationStatus.QUEUED)
    return Notification(kind=request.kind, recipient_person_id=request.recipient_person_id, channel=row.channel,
                        status=status, outbox_id=row.id)
