"""Helpers of the email and Telegram tests: post a signed route or an update, read what went out."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx

from gateway.context import GatewayContext
from gateway.email.route_form import route_form
from gateway.telegram.updates import contact_update, text_update
from gateway.telegram.wire import SECRET_HEADER
from spine.records import AgentTrace
from spine.repo import Spine
from tests.support.mailgun_server import MailgunStandIn
from tests.support.telegram_server import TelegramStandIn

SECRET = "test-telegram-secret"
YALE_EMAIL = "yale@clara.example"


@dataclass
class Channels:
    client: httpx.AsyncClient
    context: GatewayContext
    pool: Any
    spine: Spine
    mailgun: MailgunStandIn
    telegram: TelegramStandIn

    async def email(self, from_: str, text: str, *, to: str = YALE_EMAIL, **options) -> httpx.Response:
        form = route_form(signing_key=self.mailgun.signing_key, from_=from_, to=to, text=text, **options)
        return await self.client.post("/email/inbound", data=form)

    async def post_form(self, form: dict[str, str], **kwargs) -> httpx.Response:
        return await self.client.post("/email/inbound", data=form, **kwargs)

    async def update(self, update: dict, *, secret: str | None = SECRET) -> httpx.Response:
        headers = {SECRET_HEADER: secret} if secret is not None else {}
        return await self.client.post("/telegram/webhook", json=update, headers=headers)

    async def telegram_text(self, user_id: int, text: str, **options) -> httpx.Response:
        return await self.update(text_update(user_id=user_id, text=text, **options))

    async def share_contact(self, user_id: int, phone: str, **options) -> httpx.Response:
        return await self.update(contact_update(user_id=user_id, phone=phone, **options))

    async def trace(self, response: httpx.Response) -> AgentTrace:
        interaction_id = response.json()["interaction_id"]
        trace = await self.spine.get_trace(interaction_id)
        assert trace is not None, f"no trace for {interaction_id}"
        return trace
