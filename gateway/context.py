"""GatewayContext: what every route needs, created once per Serve replica (or per test app).

Routes get it through the FastAPI dependency `get_context(request)`; nothing else is global.
"""
from __future__ import annotations

import asyncio
import os
from typing import Any, Protocol

import httpx
from fastapi import Request
from pydantic import BaseModel, ConfigDict, Field

from actors.turn_types import TurnResult
from gateway.email.channel import EmailChannel
from gateway.settings import Settings
from gateway.sms.abandoned import AbandonedInboundSweep
from gateway.sms.delivery import Delivery
from gateway.sms.handler import SmsHandler, SmsOptions
from gateway.sms.rest import TwilioRest
from gateway.telegram.channel import TelegramChannel
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.repo import Spine
from spine.store.url import open_store

STATUS_CALLBACK_PATH = "/sms/twilio/status"


class ActorPool(Protocol):
    """The actor runtime as the gateway sees it (actors.pool.HostPool)."""

    async def submit(self, envelope: MessageEnvelope) -> TurnResult: ...

    async def actors(self) -> list[Any]: ...

    async def host_names(self) -> list[str]: ...


class GatewayArgs(BaseModel):
    """The application `args:` of ray_config.yaml, consumed by `gateway.app:build_app`."""

    model_config = ConfigDict(extra="forbid")

    # actors.config.RuntimeConfig sizing: the default of the GatewayIngress `user_config.runtime`
    # (ray_config.yaml sets that one; a change there applies live, a change here restarts replicas)
    runtime: dict[str, Any] = Field(default_factory=dict)
    sms: SmsOptions = Field(default_factory=SmsOptions)
    # Settings as environment names (GATEWAY_STORE, TWILIO_AUTH_TOKEN, ...) laid over the
    # replica's own environment: the demo and tests configure replicas of a running Ray this way.
    env: dict[str, str] = Field(default_factory=dict)

    def settings(self) -> Settings:
        return Settings.from_env({**os.environ, **self.env})


class GatewayContext:
    def __init__(self, settings: Settings, spine: Spine, pool: ActorPool, *, sms_options: SmsOptions | None = None,
                 http: httpx.AsyncClient | None = None) -> None:
        self.settings = settings
        self.spine = spine
        self.pool = pool
        self.http = http or httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=5.0))
        self.delivery = Delivery(spine, twilio_rest(settings, self.http),
                                 status_callback_url=settings.public_url + STATUS_CALLBACK_PATH)
        self.sms = SmsHandler(spine, pool, self.delivery, sms_options)
        options = self.sms.options
        self.email = EmailChannel(settings, spine, pool, self.http, inline_budget_s=options.inline_budget_s)
        self.telegram = TelegramChannel(settings, spine, pool, self.http, inline_budget_s=options.inline_budget_s)
        deliveries = {Channel.SMS: self.delivery, Channel.EMAIL: self.email.delivery,
                      Channel.TELEGRAM: self.telegram.delivery}
        self.abandoned = AbandonedInboundSweep(spine, deliveries, abandoned_after_s=options.abandoned_after_s,
                                               every_s=options.sweep_every_s)
        self._sweeping: asyncio.Task | None = None

    @classmethod
    async def start(cls, args: GatewayArgs, runtime: dict[str, Any] | None = None) -> "GatewayContext":
        """Open the store and join (or create) the actor pool named in the runtime config
        (`runtime`: the user_config's runtime section; args.runtime when None)."""
        from actors.config import RuntimeConfig  # Ray is imported only where it runs
        from actors.pool import HostPool

        settings = args.settings()
        config = RuntimeConfig.from_settings(settings, args.runtime if runtime is None else runtime)
        spine = Spine(open_store(settings.store_url, timeout_s=config.store_timeout_s))
        pool = await HostPool.start(config, spine)
        context = cls(settings, spine, pool, sms_options=args.sms)
        context._sweeping = asyncio.create_task(context.abandoned.run())  # every replica sweeps
        return context

    async def aclose(self) -> None:
        if self._sweeping is not None:
            self._sweeping.cancel()
        await self.sms.drain()
        await self.email.turns.drain()
        await self.telegram.turns.drain()
        await self.http.aclose()
        await self.spine.store.close()


def twilio_rest(settings: Settings, http: httpx.AsyncClient) -> TwilioRest | None:
    """A REST sender when Twilio credentials are configured; None keeps late replies in the outbox."""
    if not (settings.twilio_account_sid and settings.twilio_auth_token):
        return None
    return TwilioRest(http, api_base=settings.twilio_api_base, account_sid=settings.twilio_account_sid,
                      auth_token=settings.twilio_auth_token)


async def get_context(request: Request) -> GatewayContext:
    # async: FastAPI runs a plain `def` dependency in a worker thread, a hop on every request
    return request.app.state.context
