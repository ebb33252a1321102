"""Replies that leave after the webhook has been answered: each part goes into the outbox
first (so nothing is lost), then to Twilio's REST API when credentials are configured.
Without credentials the outbox holds it, pending, for an operator or a later sender."""
from __future__ import annotations

import spine.keys as keys
from desk.outbound.may_send import may_reply, reply_blocked
from gateway.outbox_delivery import deliver_once
from gateway.sms.splitting import split_body
from gateway.twilio.rest import TwilioRest, TwilioRestError
from gateway.twilio.texts import send_text
from spine.context import Channel
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine


class Delivery:
    def __init__(self, spine: Spine, rest: TwilioRest | None, status_callback_url: str | None = None) -> None:
        self.spine = spine
        self.rest = rest
        self.status_callback_url = status_callback_url

    async def may_send(self, to: str) -> bool:
        """Whether we may text `to` now: the one check every sending path makes (the inline
        TwiML answer, the redelivery replay, the REST send and its outbox rows, the sweep's
        apology). A STOP recorded a moment ago counts: it is read at the moment of sending. These are
        replies, so an opt-out the PMS recorded (consent kept there) does not stop them."""
        return await may_reply(self.spine, to, Channel.SMS)

    async def send(self, *, key: str, to: str, from_: str, body: str) -> list[OutboxMessage]:
        """Send `body` (split at 1600 characters) from `from_` to `to`. `key` names the outbox
        rows (`{key}-{n}`), so one reply is one set of rows however often it is retried."""
        blocked = await reply_blocked(self.spine, to, Channel.SMS)
        sent = []
        for n, part in enumerate(split_body(body)):
            message = OutboxMessage(id=keys.reply_part(key, n), to_address=to, from_address=from_, body=part)
            if blocked is not None:
                message.status, message.error = OutboxStatus.BLOCKED, blocked
            sent.append(await self._deliver(message))
        return sent

    async def _deliver(self, message: OutboxMessage) -> OutboxMessage:
        return await deliver_once(self.spine, message, self._send if self.rest else None, TwilioRestError)

    async def _send(self, message: OutboxMessage) -> str:
        assert self.rest is not None  # _deliver sends only with a REST client
        return await send_text(self.spine, self.rest, message, status_callback=self.status_callback_url)
