"""After a turn, the rows its tools queued (a page's text and call, an urgent notification) are
sent at once by the replica that ran it, instead of at the scheduler's next tick: under load a
tick can be seconds away. Each row is still claimed once (gateway.outbox_delivery.send_claimed),
so the scheduler's sweep never sends it again; a row this misses is sent by the next tick."""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from actors.config import RuntimeConfig
from actors.host.person_runtime import ActorInfo
from actors.protocol.turn import TurnResult
from gateway.outbox_sender import OutboxSender
from spine.envelope import MessageEnvelope
from spine.notification import NotificationStatus

log = logging.getLogger("clara.outbox")


class SendingPool:
    """The actor pool (actors.client.pool.HostPool, or a test's), sending each turn's queued rows after it."""

    def __init__(self, pool: Any, sender: OutboxSender) -> None:  # Any: gateway.context.ActorPool, which imports this
        self.pool, self.sender = pool, sender
        self._sending: set[asyncio.Task[None]] = set()

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        result = await self.pool.submit(envelope)
        self.send_soon([n.outbox_id for n in result.trace.notifications
                        if n.outbox_id and n.status == NotificationStatus.QUEUED])
        return result

    def send_soon(self, ids: list[str]) -> None:
        """Send these queued rows now, in the background (a turn's, or a staff member's message)."""
        if ids:
            task = asyncio.ensure_future(self._send(ids))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _send(self, ids: list[str]) -> None:
        try:
            await self.sender.send_queued(ids)
        except Exception as exc:  # noqa: BLE001 - the scheduler's next tick sends what this could not
            log.warning("sending a turn's queued rows failed (the scheduler will): %s", exc)

    async def drain(self) -> None:
        if self._sending:
            await asyncio.wait(set(self._sending), timeout=10)

    async def actors(self) -> list[ActorInfo]:
        found: list[ActorInfo] = await self.pool.actors()
        return found

    async def host_names(self) -> list[str]:
        names: list[str] = await self.pool.host_names()
        return names

    async def apply(self, config: RuntimeConfig) -> None:
        await self.pool.apply(config)

    def __getattr__(self, name: str) -> object:  # a test pool's own attributes (e.g. `submitted`)
        return getattr(self.pool, name)
