"""Shared pieces of the gateway tests: constants, settings, turn runners that implement the actor
pool's interface (submit/actors) without Ray, the in-process gateway apps, and a signed SMS."""
from __future__ import annotations

import asyncio
from collections.abc import Callable

import httpx

from actors.protocol.turn import TurnDeps, TurnResult
from gateway.app import create_app
from gateway.cli.sms import send_sms
from gateway.context import GatewayContext
from gateway.settings import Settings
from gateway.sms.options import SmsOptions
from spine.envelope import MessageEnvelope
from spine.records import AgentTrace
from spine.repo import Spine
from tests.support.twilio_server import TwilioStandIn

PUBLIC_URL = "http://gateway.test"
AUTH_TOKEN = "twilio-test-token"
ADMIN_TOKEN = "admin-test-token"
ACCOUNT_SID = "AC" + "1" * 32
MARCUS, YALE = "+12065551001", "+12065550100"


class ScriptedPool:
    """A turn runner that answers from a function of the envelope, after an optional delay or
    with an error: lets tests shape slow, failing or long turns through the pool's interface."""

    def __init__(self, reply: Callable[[MessageEnvelope], str] = lambda e: f"echo: {e.body}",
                 delay_s: float = 0.0, error: Exception | None = None) -> None:
        self.reply, self.delay_s, self.error = reply, delay_s, error
        self.submitted: list[MessageEnvelope] = []

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        self.submitted.append(envelope)
        await asyncio.sleep(self.delay_s)
        if self.error is not None:
            raise self.error
        trace = AgentTrace(interaction_id=envelope.interaction_id, channel=envelope.channel)
        return TurnResult(interaction_id=envelope.interaction_id, person_id=envelope.participant_id,
                          reply=self.reply(envelope), trace=trace)

    async def actors(self) -> list:
        return []

    async def host_names(self) -> list[str]:
        return []


class OfflinePool:
    """The real agent turn (router, prompts, tools, offline model) in-process, without Ray."""

    def __init__(self, spine: Spine) -> None:
        from actors.dispatcher.dispatcher import Dispatcher
        from actors.model.offline import OfflineModel

        self.deps = TurnDeps(spine=spine, model=OfflineModel(), tools=Dispatcher(spine))
        self.submitted: list[MessageEnvelope] = []

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        from actors.turn.interaction import run_interaction

        self.submitted.append(envelope)
        return await run_interaction(self.deps, envelope)

    async def actors(self) -> list:
        return []

    async def host_names(self) -> list[str]:
        return []


def settings_for(spine: Spine, twilio: TwilioStandIn | None, **overrides) -> Settings:
    values = dict(store_url="sqlite:///unused", twilio_auth_token=AUTH_TOKEN, public_url=PUBLIC_URL,
                  admin_token=ADMIN_TOKEN)
    if twilio is not None:
        values.update(twilio_account_sid=twilio.account_sid, twilio_api_base=twilio.url)
    values.update(overrides)
    return Settings(**values)


class GatewayClients:
    """The gateway apps one test builds (create_app over a GatewayContext, driven in-process
    through httpx) over the test's store; `aclose` closes them all."""

    def __init__(self, spine: Spine, twilio: TwilioStandIn | None) -> None:
        self.spine, self.twilio = spine, twilio
        self.opened: list[tuple[httpx.AsyncClient, GatewayContext]] = []

    async def open(self, pool, *, sms_options: SmsOptions | None = None, with_twilio: bool = True,
                   **settings) -> tuple[httpx.AsyncClient, GatewayContext]:
        twilio = self.twilio if with_twilio else None
        context = GatewayContext(settings_for(self.spine, twilio, **settings), self.spine, pool,
                                 sms_options=sms_options)
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url=PUBLIC_URL)
        self.opened.append((client, context))
        return client, context

    async def aclose(self) -> None:
        for client, context in self.opened:
            await client.aclose()
            await context.sms.drain()
            await context.http.aclose()
            if context.buildium is not None:  # its webhooks' work first, then its client
                await asyncio.gather(*context._background, return_exceptions=True)
                await context.buildium.aclose()


async def text(client: httpx.AsyncClient, body: str, *, from_: str = MARCUS, to: str = YALE, sid: str | None = None,
               media=()):
    """One SMS as Twilio would post it to the in-process gateway: signed, with this account's SID."""
    return await send_sms(client, base_url=PUBLIC_URL, auth_token=AUTH_TOKEN, from_=from_, to=to, body=body,
                          message_sid=sid, account_sid=ACCOUNT_SID, media_urls=media)
