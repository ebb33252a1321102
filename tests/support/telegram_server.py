"""A local stand-in for the Telegram Bot API, for tests and the demo: `sendMessage` and
`setWebhook`, and a sender of updates to a webhook.

`POST /bot{token}/{method}` with a JSON (or form) body answers `{"ok": true, "result": ...}`, or
`{"ok": false, "error_code", "description"}`: 401 "Unauthorized" for a token not ours, 404 "Not
Found" for a method it does not know, 400 "Bad Request: chat not found" / "message text is
empty" / "message is too long", 403 "Forbidden: bot was blocked by the user" for chats in
`blocked`, 429 with `parameters.retry_after`, or a scripted failure. Every call is recorded.
`post_update(...)` posts an Update to a webhook with the X-Telegram-Bot-Api-Secret-Token header.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from aiohttp import web

from gateway.telegram.wire import MAX_TEXT_CHARS, SECRET_HEADER
from tests.support.threaded_server import RecordingServer


@dataclass
class BotCall:
    method: str
    payload: dict[str, Any]
    status: int
    at: float = field(default_factory=time.monotonic)


def _error(status: int, description: str, **extra) -> web.Response:
    return web.json_response({"ok": False, "error_code": status, "description": description, **extra}, status=status)


class TelegramStandIn(RecordingServer):
    name = "Telegram Bot API stand-in"

    def __init__(self, token: str = "7000000100:TEST-bot-token") -> None:
        super().__init__()
        self.token = token
        self.bot_id = int(token.split(":", 1)[0])
        self.webhook: dict[str, Any] | None = None
        self.blocked: set[int] = set()
        self._failures: list[tuple[int, str, dict]] = []
        self._message_ids = iter(range(1, 10**9))

    @property
    def calls(self) -> list[BotCall]:
        """Every Bot API call, in order."""
        return self.requests.items

    def fail_next(self, status: int = 500, description: str = "Internal Server Error", **extra) -> None:
        self._failures.append((status, description, extra))

    def delivered(self, record: BotCall) -> bool:
        return record.method == "sendMessage" and record.status == 200

    def sent(self) -> list[BotCall]:
        return [c for c in self.calls if self.delivered(c)]

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/bot{token}/{method}", self._call)

    async def _call(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        if request.content_type == "application/json":
            payload = await request.json()
        else:
            payload = dict(await request.post())
        return self.answered(BotCall(method=method, payload=payload, status=0),
                             self._answer(request.match_info["token"], method, payload))

    def _answer(self, token: str, method: str, payload: dict[str, Any]) -> web.Response:
        if token != self.token:
            return _error(401, "Unauthorized")
        if self._failures:
            status, description, extra = self._failures.pop(0)
            return _error(status, description, **extra)
        if method == "sendMessage":
            return self._send_message(payload)
        if method == "setWebhook":
            self.webhook = {"url": payload.get("url", ""), "secret_token": payload.get("secret_token"),
                            "allowed_updates": payload.get("allowed_updates")}
            return web.json_response({"ok": True, "result": True, "description": "Webhook was set"})
        return _error(404, "Not Found")

    def _send_message(self, payload: dict[str, Any]) -> web.Response:
        text, chat_id = str(payload.get("text") or ""), payload.get("chat_id")
        if not str(chat_id or "").lstrip("-").isdigit():
            return _error(400, "Bad Request: chat not found")
        if not text.strip():
            return _error(400, "Bad Request: message text is empty")
        if len(text) > MAX_TEXT_CHARS:
            return _error(400, "Bad Request: message is too long")
        if int(chat_id) in self.blocked:
            return _error(403, "Forbidden: bot was blocked by the user")
        message = {"message_id": next(self._message_ids), "date": int(time.time()), "text": text,
                   "chat": {"id": int(chat_id), "type": "private"},
                   "from": {"id": self.bot_id, "is_bot": True, "first_name": "Clara"}}
        return web.json_response({"ok": True, "result": message})


async def post_update(http: httpx.AsyncClient, webhook_url: str, update: dict, *, secret: str | None) -> httpx.Response:
    """POST one Update to a webhook as Telegram does (the secret header when one was set)."""
    headers = {SECRET_HEADER: secret} if secret is not None else {}
    return await http.post(webhook_url, json=update, headers=headers)
