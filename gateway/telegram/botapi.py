"""A small client for the Telegram Bot API over httpx: `POST {TELEGRAM_API_BASE}/bot<token>/<method>`
with a JSON body; every answer is `{"ok": true, "result": ...}` or `{"ok": false, "error_code",
"description", "parameters": {"retry_after"}}`."""
from __future__ import annotations

import asyncio
from typing import Any

import httpx

from gateway.errors import ProviderError
from gateway.telegram.wire import ALLOWED_UPDATES
from gateway.untrusted import json_value, whole_number

_ATTEMPTS = 3
_MAX_RETRY_AFTER_S = 5.0  # a longer flood wait is a failure for this reply, not a stall


class TelegramError(ProviderError):
    """The Bot API refused a method or could not be reached (the message never holds the token)."""


def bot_id(token: str | None) -> str | None:
    """The bot's numeric id: the part of its token before the colon."""
    head = (token or "").split(":", 1)[0]
    return head if whole_number(head) is not None else None


class TelegramBotApi:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, token: str) -> None:
        self._http = http
        self._base = f"{api_base.rstrip('/')}/bot{token}"

    async def call(self, method: str, payload: dict[str, Any]) -> Any:
        """One Bot API method; its `result`. Rate limits (429) are retried after `retry_after`."""
        for attempt in range(_ATTEMPTS):
            try:
                response = await self._http.post(f"{self._base}/{method}", json=payload)
            except httpx.HTTPError as exc:  # the token is in the URL: never put the URL in the error
                raise TelegramError(f"Telegram {method} failed: {type(exc).__name__}") from exc
            try:
                body = json_value(response.content)
            except ValueError:
                body = {}
            if isinstance(body, dict) and body.get("ok") is True:
                return body.get("result")
            wait = ((body.get("parameters") or {}).get("retry_after") if isinstance(body, dict) else None)
            if response.status_code == 429 and attempt + 1 < _ATTEMPTS and isinstance(wait, (int, float)) \
                    and wait <= _MAX_RETRY_AFTER_S:
                await asyncio.sleep(wait)
                continue
            description = body.get("description") if isinstance(body, dict) else None
            raise TelegramError(f"Telegram {method} answered {response.status_code}: "
                                f"{description or response.text[:200]}", status=response.status_code)
        raise AssertionError("unreachable")

    async def send_message(self, chat_id: str | int, text: str, reply_markup: dict | None = None) -> str:
        digits = whole_number(str(chat_id).removeprefix("-")) is not None
        chat = int(chat_id) if digits else chat_id  # Integer (ASCII digits, so int() takes it), or @channel
        payload: dict[str, Any] = {"chat_id": chat, "text": text}
        if reply_markup:
            payload["reply_markup"] = reply_markup
        result = await self.call("sendMessage", payload)
        return str((result or {}).get("message_id", ""))

    async def set_webhook(self, url: str, secret_token: str) -> bool:
        return bool(await self.call("setWebhook", {"url": url, "secret_token": secret_token,
                                                   "allowed_updates": ALLOWED_UPDATES}))
