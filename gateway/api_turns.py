"""Turns for channels whose replies leave by API (email, Telegram): the webhook waits for the
turn up to an inline budget (so a quick turn is answered before the provider hears back), and a
slower one finishes in the background; either way the same callback sends the reply."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from actors.protocol.turn import TurnResult
from gateway.channel_inbound import TurnSubmitter
from spine.envelope import MessageEnvelope

log = logging.getLogger("clara.gateway")

# Called once per turn with its result, or with the exception that ended it.
OnTurnEnd = Callable[[TurnResult | None, BaseException | None], Awaitable[None]]


class ApiTurns:
    def __init__(self, turns: TurnSubmitter, *, inline_budget_s: float = 10.0) -> None:
        self.turns = turns
        self.inline_budget_s = inline_budget_s
        self._background: set[asyncio.Task] = set()

    async def run(self, envelope: MessageEnvelope, on_end: OnTurnEnd) -> bool:
        """Submit the turn; True when it ended (and `on_end` ran) within the inline budget."""
        task = asyncio.ensure_future(self.turns.submit(envelope))
        try:
            async with asyncio.timeout(self.inline_budget_s):  # the turn goes on past it (shield)
                result = await asyncio.shield(task)
        except TimeoutError:
            self._spawn(self._finish_later(task, on_end))
            return False
        except asyncio.CancelledError:  # the webhook caller hung up: the reply still goes out
            self._spawn(self._finish_later(task, on_end))
            raise
        except Exception as exc:  # noqa: BLE001 - a failed turn is an outcome the caller records
            await on_end(None, exc)
            return True
        await on_end(result, None)
        return True

    async def drain(self, timeout_s: float = 30.0) -> None:
        """Wait for turns still running in the background (shutdown, tests)."""
        if self._background:
            await asyncio.wait(set(self._background), timeout=timeout_s)

    async def _finish_later(self, task: asyncio.Future, on_end: OnTurnEnd) -> None:
        try:
            result = await task
        except Exception as exc:  # noqa: BLE001 - a failed turn is an outcome the caller records
            await on_end(None, exc)
        else:
            await on_end(result, None)

    def _spawn(self, coro) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
