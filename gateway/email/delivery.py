"""Email replies: each goes into the outbox first (so nothing is lost), then to Mailgun's
messages API when MAILGUN_API_KEY and MAILGUN_DOMAIN are set. Without them the outbox holds it,
pending, with its subject and threading headers, as SMS replies wait without Twilio credentials."""
from __future__ import annotations

import logging

from gateway.email.mailgun import MailgunError, MailgunMessages
from spine.context import Channel
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine

log = logging.getLogger("clara.email")


class EmailDelivery:
    def __init__(self, spine: Spine, mailgun: MailgunMessages | None) -> None:
        self.spine = spine
        self.mailgun = mailgun

    async def send(self, *, key: str, to: str, from_: str, body: str, subject: str = "",
                   headers: dict[str, str] | None = None) -> OutboxMessage:
        """Send one plain-text email. `key` names the outbox row, so one reply is one row (and
        one email) however often it is retried."""
        existing = await self.spine.get_outbox(key)
        if existing is not None and existing.status != OutboxStatus.PENDING:
            return existing  # already handled: never email the same reply twice
        message = OutboxMessage(id=key, channel=Channel.EMAIL, to_address=to, from_address=from_, body=body,
                                subject=subject or "Your message", headers=dict(headers or {}))
        if await self.spine.is_opted_out(to):
            message.status, message.error = OutboxStatus.SUPPRESSED, "recipient unsubscribed"
        await self.spine.put_outbox(message)
        if self.mailgun is None or message.status != OutboxStatus.PENDING:
            return message
        try:
            provider_id = await self.mailgun.send(from_=from_, to=to, subject=message.subject or "", text=body,
                                                  headers=message.headers)
        except MailgunError as exc:
            log.warning("email %s failed: %s", key, exc)
            message = message.model_copy(update={"status": OutboxStatus.FAILED, "error": str(exc)[:500]})
        else:
            message = message.model_copy(update={"status": OutboxStatus.SENT, "provider_id": provider_id})
        await self.spine.put_outbox(message)
        return message
