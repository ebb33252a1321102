"""Telegram replies: each part goes into the outbox first (so nothing is lost), then to
sendMessage when TELEGRAM_BOT_TOKEN is set; without it the outbox holds them, pending."""
from __future__ import annotations

import json

import spine.keys as keys
from desk.outbound.may_send import reply_blocked
from gateway.outbox_delivery import deliver_once
from gateway.sms.splitting import split_body
from gateway.telegram.botapi import TelegramBotApi, TelegramError
from gateway.telegram.wire import MAX_TEXT_CHARS
from spine.context import Channel
from spine.records import OutboxMessage, OutboxStatus
from spine.repo import Spine

REPLY_MARKUP = "reply_markup"  # the outbox header holding the keyboard, as JSON


class TelegramDelivery:
    def __init__(self, spine: Spine, api: TelegramBotApi | None) -> None:
        self.spine = spine
        self.api = api

    async def send(self, *, key: str, to: str, from_: str, body: str,
                   reply_markup: dict | None = None, confirms_opt_out: bool = False) -> list[OutboxMessage]:
        """Send `body` to chat `to` (split at Telegram's 4096 characters; the keyboard rides on
        the last part). `key` names the outbox rows (`{key}-{n}`), so a retry sends nothing twice."""
        # The one message an opt-out may still get is its own confirmation (desk.outbound.consent).
        blocked = None if confirms_opt_out else await reply_blocked(self.spine, to, Channel.TELEGRAM)
        parts = split_body(body, MAX_TEXT_CHARS)
        sent = []
        for n, part in enumerate(parts):
            headers = {REPLY_MARKUP: json.dumps(reply_markup)} if reply_markup and n == len(parts) - 1 else {}
            message = OutboxMessage(id=keys.reply_part(key, n), channel=Channel.TELEGRAM, to_address=to, from_address=from_,
                                    body=part, headers=headers)
            if blocked is not None:
                message.status, message.error = OutboxStatus.BLOCKED, blocked
            sent.append(await self._deliver(message))
        return sent

    async def _deliver(self, message: OutboxMessage) -> OutboxMessage:
        return await deliver_once(self.spine, message, self._send if self.api else None, TelegramError)

    async def _send(self, message: OutboxMessage) -> str:
        assert self.api is not None  # _deliver sends only with a Bot API client
        markup = message.headers.get(REPLY_MARKUP)
        return await self.api.send_message(message.to_address, message.body, json.loads(markup) if markup else None)
