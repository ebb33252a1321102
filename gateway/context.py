"""GatewayContext: what every route needs, created once per Serve replica (or per test app).

Routes get it through the FastAPI dependency `get_context(request)`; nothing else is global.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

import httpx
from fastapi import Request

from actors.config import RuntimeConfig
from actors.host.person_runtime import ActorInfo
from gateway.channel_inbound import TurnSubmitter
from gateway.email.channel import EmailChannel
from gateway.outbox_sender import OutboxSender, OutboxSenderFactory
from gateway.pms.buildium.worker import BuildiumWorkFactory, open_worker
from gateway.send_soon import SendingPool
from gateway.settings import GatewayArgs, Settings, TakeoverOptions
from gateway.sms.abandoned import AbandonedInboundSweep, ApologySender
from gateway.sms.delivery import Delivery
from gateway.sms.handler import SmsHandler
from gateway.sms.options import SmsOptions
from gateway.telegram.channel import TelegramChannel
from gateway.twilio.client import status_callback_url, twilio_clients
from spine.context import Channel
from spine.records import OutboxStatus
from spine.repo import Spine
from spine.store.url import open_store

OUTBOX_GAUGE_S = 15.0
OUTBOX_GAUGE_LIMIT = 1000
SCHEDULER_START_S = 30.0  # the gauge saturates here: past it, the outbox is the incident anyway

log = logging.getLogger("clara.gateway")


class ActorPool(TurnSubmitter, Protocol):
    """The actor runtime as the gateway sees it (actors.client.pool.HostPool)."""

    async def actors(self) -> list[ActorInfo]: ...

    async def host_names(self) -> list[str]: ...

    async def apply(self, config: RuntimeConfig) -> None: ...


class GatewayContext:
    def __init__(self, settings: Settings, spine: Spine, pool: ActorPool, *, sms_options: SmsOptions | None = None,
                 http: httpx.AsyncClient | None = None, takeover: TakeoverOptions | None = None,
                 buildium_poll_s: float = 300.0) -> None:
        self.settings = settings
        self.takeover = takeover or TakeoverOptions()
        self.spine = spine
        self.http = http or httpx.AsyncClient(timeout=httpx.Timeout(10.0, connect=5.0))
        # A turn's queued rows (a page's text and call) leave from here at once (gateway.send_soon).
        self.pool = pool = SendingPool(pool, OutboxSender(spine, settings, self.http))
        twilio = twilio_clients(settings, self.http)
        self.delivery = Delivery(spine, twilio.messages if twilio else None,
                                 status_callback_url=status_callback_url(settings))
        self.sms = SmsHandler(spine, pool, self.delivery, sms_options)
        options = self.sms.options
        self.email = EmailChannel(settings, spine, pool, self.http, inline_budget_s=options.inline_budget_s)
        self.telegram = TelegramChannel(settings, spine, pool, self.http, inline_budget_s=options.inline_budget_s)
        deliveries: dict[Channel, ApologySender] = {Channel.SMS: self.delivery, Channel.EMAIL: self.email.delivery,
                      Channel.TELEGRAM: self.telegram.delivery}
        self.abandoned = AbandonedInboundSweep(spine, deliveries, abandoned_after_s=options.abandoned_after_s,
                                               every_s=options.sweep_every_s)
        self._sweeping: asyncio.Task | None = None
        self.scheduler: Any = None  # the PagingScheduler's handle (actors.control.scheduler), under Ray
        self._gauging: asyncio.Task | None = None
        # Buildium's webhooks are worked on this replica right after their 2xx; None: not configured.
        self.buildium = open_worker(settings, spine, buildium_poll_s)
        self._background: set[asyncio.Task[Any]] = set()

    @classmethod
    async def start(cls, args: GatewayArgs, runtime: dict[str, Any] | None = None) -> GatewayContext:
        """Open the store and join (or create) the actor pool named in the runtime config
        (`runtime`: the user_config's runtime section; args.runtime when None)."""
        from actors.client.pool import HostPool  # Ray is imported only where it runs
        from actors.control.scheduler import start_scheduler

        settings = args.settings()
        config = args.runtime_config(settings) if runtime is None else RuntimeConfig.from_settings(settings, runtime)
        spine = Spine(open_store(settings.store_url, timeout_s=config.store_timeout_s))
        pool = await HostPool.start(config, spine)
        context = cls(settings, spine, pool, sms_options=args.sms, takeover=args.takeover,
                      buildium_poll_s=args.buildium.poll_s)
        # The one scheduler of the namespace: every replica asks, the first creates it; the replica
        # is ready once it answers (a page queued before then would wait for its first tick).
        context.scheduler = start_scheduler(config, OutboxSenderFactory(settings=settings),
                                            accept_within_s=args.dispatch.accept_within_s,
                                            side_work=BuildiumWorkFactory(settings=settings, poll_s=args.buildium.poll_s)
                                            if context.buildium else None)
        try:
            await asyncio.wait_for(context.scheduler.ping.remote(), SCHEDULER_START_S)
        except Exception as exc:  # noqa: BLE001 - Ray keeps starting it; pages wait in the store meanwhile
            log.warning("the paging scheduler did not answer within %.0f s: %s", SCHEDULER_START_S, exc)
        context._sweeping = asyncio.create_task(context.abandoned.run())  # every replica sweeps
        context._gauging = asyncio.create_task(context.gauge_outbox())
        return context

    async def gauge_outbox(self, every_s: float = OUTBOX_GAUGE_S) -> None:
        """The outbox depth metric: replies still pending (each replica reports it; take the max)."""
        from actors import metrics

        while True:
            try:
                pending = await self.spine.outbox(OutboxStatus.PENDING, limit=OUTBOX_GAUGE_LIMIT)
                metrics.gauge("clara_outbox_depth", len(pending))
            except Exception as exc:  # noqa: BLE001 - a missed sample is fine; /readyz reports the store
                log.debug("outbox gauge skipped: %s", exc)
            await asyncio.sleep(every_s)

    def background(self, task: asyncio.Task[Any]) -> None:
        """Work begun after a webhook's answer: held until done (a bare task may be collected)."""
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def aclose(self) -> None:
        for task in (self._sweeping, self._gauging):
            if task is not None:
                task.cancel()
        if self._background:
            await asyncio.wait(list(self._background), timeout=10)
        if self.buildium is not None:
            await self.buildium.aclose()
        await self.sms.drain()
        await self.pool.drain()
        await self.email.turns.drain()
        await self.telegram.turns.drain()
        await self.email.handler.inbound.behind.drain()
        await self.telegram.handler.inbound.behind.drain()
        await self.http.aclose()
        await self.spine.store.close()


async def get_context(request: Request) -> GatewayContext:
    # async: FastAPI runs a plain `def` dependency in a worker thread, a hop on every request
    return request.app.state.context
