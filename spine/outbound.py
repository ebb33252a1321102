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
from spine.identity import ClaimKind
from spine.records import OutboxMessage
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


class Notification(BaseModel):
    """One entry of the trace's `notifications` and of a tool result: what was queued for whom."""

    kind: NotificationKind
    recipient_person_id: str
    channel: Channel | None
    status: NotificationStatus
    outbox_id: str | None = None


# A provisional queue_outbound (the staff console's session wrote it before the notify session's
# arrived, so staff messages already take the one outbox): the row is keyed by the request, goes
# out on the request's channel (SMS when it names none) from the property's address, and is
# blocked for a recipient without that address or opted out of it. notify's version replaces it.
async def queue_outbound(spine: Spine, request: OutboundRequest) -> Notification:
    channel = request.channel if request.channel in (Channel.SMS, Channel.EMAIL, Channel.TELEGRAM) else Channel.SMS
    person = await spine.get_person(request.recipient_person_id)
    prop = await spine.get_property(request.property_id) if request.property_id else None
    kind = {Channel.SMS: ClaimKind.PHONE, Channel.EMAIL: ClaimKind.EMAIL}.get(channel, ClaimKind.TELEGRAM)
    to = next((c.value for c in person.claims if c.kind == kind), None) if person and not person.deceased else None
    sender = {Channel.SMS: prop.sms_number if prop else None, Channel.EMAIL: prop.email if prop else None,
              Channel.TELEGRAM: prop.telegram_bot_id if prop else None}[channel]
    blocked = Notification(kind=request.kind, recipient_person_id=request.recipient_person_id, channel=channel,
                           status=NotificationStatus.BLOCKED)
    if to is None or sender is None or await spine.is_opted_out(to):
        return blocked
    row = OutboxMessage(id=request.key, channel=channel, to_address=to, from_address=sender, body=request.body,
                        subject=request.subject)
    existing = await spine.get_outbox(row.id)
    if existing is None:
        await spine.put_outbox(row)
    return Notification(kind=request.kind, recipient_person_id=request.recipient_person_id, channel=channel,
                        status=NotificationStatus.QUEUED, outbox_id=row.id)
