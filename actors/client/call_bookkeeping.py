"""An opening's bookkeeping (the call's trace, context-build events), written just after the
answer: while other phones are still ringing on this replica it waits for them (up to
WRITE_BEHIND_MAX_S), so a burst of calls is answered first. Nothing reads it that soon but this
replica, which waits for it (`recorded`)."""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from spine.store import StoreUnavailable

log = logging.getLogger("clara.voice")

WRITE_BEHIND_S = 0.05
WRITE_BEHIND_MAX_S = 0.5
# A store that refuses the bookkeeping for a moment (locked, unreachable) is waited out this long:
# a call whose trace never landed has every later tool refused as "no call on record"
# (bench/chaos.py, the store refusing writes for 10 s).
WRITE_RETRY_S = 20.0

Write = Callable[[], Awaitable[Any]]
T = TypeVar("T")
FIRST_PAUSE_S, MAX_PAUSE_S = 0.25, 2.0


class Bookkeeping:
    """(Not gateway.write_behind, which outlasts a refused end of an inbound.) Everything queued within WRITE_BEHIND_S is written by one task: a burst of ringing phones
    costs one timer and one task, not one of each per write."""

    def __init__(self, all_answered: asyncio.Event, run_in_background: Callable[[asyncio.Task[Any]], None],
                 retry_s: float = WRITE_RETRY_S) -> None:
        self.all_answered, self.run_in_background, self.retry_s = all_answered, run_in_background, retry_s
        self._recording: dict[str, asyncio.Task[None]] = {}  # call traces being written by this replica
        self._batch: list[Write] | None = None  # bookkeeping queued to write
        self._batch_task: asyncio.Task[None] | None = None

    def write(self, write: Write, *, recording: str | None = None) -> None:
        """With `recording`, the call's own readers on this replica wait for the batch (`recorded`)."""
        if self._batch is None or self._batch_task is None:
            self._batch = []
            self._batch_task = asyncio.create_task(self._write_behind(self._batch))
            self.run_in_background(self._batch_task)
        self._batch.append(write)
        if recording and self._batch_task is not None:
            self._recording[recording] = self._batch_task

    async def recorded(self, interaction_id: str) -> None:
        task = self._recording.get(interaction_id)
        if task is not None:
            await asyncio.gather(asyncio.shield(task), return_exceptions=True)

    async def _write_behind(self, batch: list[Write]) -> None:
        await asyncio.sleep(WRITE_BEHIND_S)
        self._batch = None
        try:
            await asyncio.wait_for(self.all_answered.wait(), WRITE_BEHIND_MAX_S - WRITE_BEHIND_S)
        except TimeoutError:
            pass  # phones keep ringing: write anyway, the call's tools need its trace
        try:
            await asyncio.gather(*(logged(write, self.retry_s) for write in batch))
        finally:
            me = asyncio.current_task()
            for iid in [i for i, task in self._recording.items() if task is me]:
                del self._recording[iid]


async def retried(call: Callable[[], Awaitable[T]], retry_s: float,
                  retry_on: tuple[type[Exception], ...] = (StoreUnavailable,)) -> T:
    """`call()`'s result; a `retry_on` failure is tried again, backing off, for `retry_s` (then raised)."""
    deadline, pause = time.monotonic() + retry_s, FIRST_PAUSE_S
    while True:
        try:
            return await call()
        except retry_on:
            if time.monotonic() + pause > deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, MAX_PAUSE_S)


async def logged(write: Write, retry_s: float) -> None:
    """One bookkeeping write, `retried` while the store is unavailable; a failure is logged, not raised."""
    try:
        await retried(write, retry_s)
    except Exception as exc:  # noqa: BLE001 - bookkeeping of one call; the others in its batch still land
        log.warning("voice bookkeeping write failed: %r", exc)
