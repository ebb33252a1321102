"""Writes that must land even when the store refuses them for a moment (SQLite write-locked by
another process, the DynamoDB endpoint unreachable): how an accepted message ended, and the
outbox row of its reply. Tried at once; when the store is unavailable, tried again in the
background, backing off, until it lands or the message's horizon passes.

Without this, a 10 s outage met at the end of a turn lost messages and doubled others
(bench/chaos.py): a reply whose outbox row could not be written was never sent although its
message was on record as answered, and an SMS whose apology went out inline but whose failure
could not be recorded stayed `accepted`, so the abandoned-inbound sweep apologised a second time.

The horizon is `received_at + HORIZON_S`, below the sweep's shortest `abandoned_after_s` (30 s),
so the two never both act on one message. A record still unwritten by then is the sweep's to
settle: after an outage that long, an SMS whose reply left inline may get it again by REST.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TypeVar

from spine.identity import utcnow
from spine.store import StoreUnavailable

log = logging.getLogger("clara.gateway")
T = TypeVar("T")

HORIZON_S = 25.0
FIRST_PAUSE_S, MAX_PAUSE_S = 0.25, 2.0


class WriteBehind:
    def __init__(self, horizon_s: float = HORIZON_S, clock: Callable[[], datetime] = utcnow) -> None:
        self.horizon_s, self.clock = horizon_s, clock
        self._pending: set[asyncio.Task[None]] = set()

    async def write(self, what: str, received_at: datetime, write: Callable[[], Awaitable[T]]) -> T | None:
        """`write()`'s result; None when the store is unavailable now and the write goes on in
        the background (any other failure is raised as it is)."""
        try:
            return await write()
        except StoreUnavailable as exc:
            left = (received_at - self.clock()).total_seconds() + self.horizon_s
            log.warning("%s: store unavailable (%s); retrying for %.0f s", what, exc, max(0.0, left))
            task = asyncio.get_running_loop().create_task(self._retry(what, write, time.monotonic() + left))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)
            return None

    async def _retry(self, what: str, write: Callable[[], Awaitable[object]], deadline: float) -> None:
        pause = FIRST_PAUSE_S
        while time.monotonic() + pause < deadline:
            await asyncio.sleep(pause)
            try:
                await write()
            except StoreUnavailable:
                pause = min(pause * 2, MAX_PAUSE_S)
                continue
            except Exception:
                log.exception("%s: failed once the store answered again", what)
                return
            log.info("%s: written after the store came back", what)
            return
        log.error("%s: the store stayed unavailable; left to the abandoned-inbound sweep", what)

    async def drain(self, timeout_s: float = 30.0) -> None:
        """Wait for writes still being retried (shutdown, tests)."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=timeout_s)
