"""The vocabulary of what the gateway starts (pages, notifications, dispatches, staff messages), as
opposed to a reply to an inbound, and the one "not sent" word of every outbox row (`blocked`, with
the reason beside it), replies' rows included. A leaf module: the tool results (spine.toolspec) and the trace
(spine.records) carry `Notification`s, and desk.outbound.queue, which writes the outbox, re-exports all
of it (the names of the contract are desk.outbound.queue's)."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel

from spine.context import Channel


class NotificationKind(StrEnum):
    PAGE = "page"
    NOTIFY = "notify"
    DISPATCH = "dispatch"
    STAFF = "staff"
    FOLLOWUP = "followup"  # a follow-up's step (desk.followups): a tour reminder, a close-out, a renewal offer


class Purpose(StrEnum):
    """Why a started message goes: service (about something the person asked for or lives with) or
    marketing (lead follow-ups after the first, reactivation), which the law holds to more."""

    SERVICE = "service"
    MARKETING = "marketing"


class OutboxStatus(StrEnum):
    """An outbox row's state (spine.records.OutboxMessage; its `error` says why it failed or is blocked)."""

    PENDING = "pending"
    SENT = "sent"
    FAILED = "failed"
    # The one "not sent" word: it may not be sent (opted out on that channel, no address, deceased, spam,
    # the page was acknowledged first). The trace, the tool results and `notify/blocked` say the same.
    BLOCKED = "blocked"

    @classmethod
    def _missing_(cls, value: object) -> OutboxStatus | None:
        # Rows written before the word was one were kept "suppressed": read them as what they are.
        return cls.BLOCKED if value == "suppressed" else None


class NotificationStatus(StrEnum):
    """What a started message's caller is told: the row's own words, and a pending row as queued or deferred."""

    QUEUED = "queued"      # written to the outbox, goes out at the next tick
    SENT = OutboxStatus.SENT.value  # the provider accepted it
    DEFERRED = "deferred"  # waits for the recipient's next contact window (09:00-19:00 local)
    BLOCKED = OutboxStatus.BLOCKED.value  # not sent: blocked, or the provider refused it; `reason` says why


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
    # The earliest send (a coalescing hold); the contact window may move it later, never earlier.
    not_before: datetime | None = None
    # A row already under `key` and not yet sent takes this body (changes coalesced into one message).
    replace_pending: bool = False
    # Marketing goes only to people who wrote to us on that address, never opted out, 08:00-21:00
    # local, never `urgent` (desk.outbound.purpose).
    purpose: Purpose = Purpose.SERVICE
    # Clara's own words: the first message she authors to a person ends with her introduction as
    # an AI assistant (desk.outbound.purpose). False for what is not hers to sign: a staff member's
    # own words, a verification code's fixed text.
    from_clara: bool = True


class Notification(BaseModel):
    """One entry of the trace's `notifications` and of a tool result: what was queued for whom."""

    kind: NotificationKind
    recipient_person_id: str
    channel: Channel | None
    status: NotificationStatus
    outbox_id: str | None = None
    not_before: datetime | None = None  # deferred: when it goes out (UTC)
    reason: str | None = None  # blocked: why (opted out of sms, no address, deceased, the provider's error, ...)
