"""Email replies: each goes into the outbox first (so nothing is lost), then to Mailgun's
messages API when MAILGUN_API_KEY and MAILGUN_DOMAIN are set. Without them the outbox holds it,
pending, with its subject and threading headers, as SMS replies wait without Twilio credentials."""
from __future__ import annotations

from desk.outbound.may_send import reply_blocked
from gateway.email.mailgun import MailgunError, MailgunMessages
from gateway.outbox_delivery import deliver_once
from spine.context import Channel
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine


class EmailDelivery:
    def __init__(self, spine: Spine, mailgun: MailgunMessages | None) -> None:
        self.spine = spine
        self.mailgun = mailgun

    async def send(self, *, key: str, to: str, from_: str, body: str, subject: str = "",
                   headers: dict[str, str] | None = None, confirms_opt_out: bool = False) -> OutboxMessage:
        """Send one plain-text email. `key` names the outbox row, so one reply is one row (and
        one email) however often it is retried."""
        message = OutboxMessage(id=key, channel=Channel.EMAIL, to_address=to, from_address=from_, body=body,
                                subject=subject or "Your message", headers=dict(headers or {}))
        # The one message an opt-out may still get is its own confirmation (desk.outbound.consent).
        blocked = None if confirms_opt_out else await reply_blocked(self.spine, to, Channel.EMAIL)
        if blocked is not None:
            message.status, message.error = OutboxStatus.BLOCKED, blocked
        return await deliver_once(self.spine, message, self._post if self.mailgun else None, MailgunError)

    async def _post(self, message: OutboxMessage) -> str:
        assert self.mailgun is not None  # deliver_once is handed _post only with a client
        return await self.mailgun.send(from_=message.from_address, to=message.to_address,
                                       subject=message.subject or "", text=message.body, headers=message.headers)
