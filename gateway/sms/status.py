"""Twilio's delivery status callback (StatusCallback): MessageSid + MessageStatus (+ ErrorCode)
update the outbox row that holds the provider sid."""
from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel

from gateway.sms.inbound import MalformedWebhook
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine

DELIVERED = frozenset({"sent", "delivered", "read"})
NOT_DELIVERED = frozenset({"failed", "undelivered", "canceled"})


class StatusCallback(BaseModel):
    message_sid: str
    message_status: str
    error_code: str | None = None


def parse_status(form: Mapping[str, str]) -> StatusCallback:
    sid = (form.get("MessageSid") or form.get("SmsSid") or "").strip()
    status = (form.get("MessageStatus") or form.get("SmsStatus") or "").strip().lower()
    if not sid:
        raise MalformedWebhook("missing MessageSid in the status callback")
    if not status:
        raise MalformedWebhook("missing MessageStatus in the status callback")
    return StatusCallback(message_sid=sid, message_status=status, error_code=form.get("ErrorCode") or None)


def apply_status(message: OutboxMessage, callback: StatusCallback) -> OutboxMessage | None:
    """The outbox row after this callback, or None when nothing changes. Callbacks can arrive
    out of order, so a failure is final and a late 'sent' never overwrites it."""
    if callback.message_status in NOT_DELIVERED:
        error = f"twilio {callback.message_status}" + (f" (error {callback.error_code})" if callback.error_code else "")
        if message.status == OutboxStatus.FAILED and message.error == error:
            return None
        return message.model_copy(update={"status": OutboxStatus.FAILED, "error": error})
    if callback.message_status in DELIVERED and message.status == OutboxStatus.PENDING:
        return message.model_copy(update={"status": OutboxStatus.SENT})
    return None


async def record_status(spine: Spine, callback: StatusCallback) -> OutboxMessage | None:
    """Apply a status callback to its outbox row; None when the sid is unknown or nothing changed."""
    message = await spine.outbox_by_provider_id(callback.message_sid)
    if message is None:
        return None
    updated = apply_status(message, callback)
    if updated is not None:
        await spine.put_outbox(updated)
    return updated
