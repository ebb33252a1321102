"""One poller of the store's change feed per process, shared by every open stream of the staff
console (gateway.admin.stream): each tick reads each feed some stream listens to once (the last
seconds of it) and hands each new change to the streams listening there. Fifty open streams cost
the store what one does per distinct scope, not fifty times that.

A stream subscribes before it catches up (Last-Event-ID), so nothing written meanwhile is lost;
the stream drops what it already sent. The poller runs while a stream is open and stops after the
last one closes. It lives beside the Spine it reads (one per store in this process).
"""
from __future__ import annotations

import asyncio
import weakref
from datetime import datetime, timedelta

from spine.feed import Change
from spine.identity import utcnow
from spine.repo import Spine

POLL_S = 0.5
OVERLAP = timedelta(seconds=2)  # re-read each tick: a change a slow replica wrote late is still seen
QUEUE_MAX = 1000  # a stream this far behind is told to reload instead


class Subscription:
    def __init__(self, scopes: frozenset[str]) -> None:
        self.scopes = scopes
        self.queue: asyncio.Queue[Change | None] = asyncio.Queue(QUEUE_MAX)  # None: fell behind


class FeedHub:
    def __init__(self, spine: Spine) -> None:
        self.spine = spine
        self.subscriptions: set[Subscription] = set()
        self.task: asyncio.Task[None] | None = None

    def subscribe(self, scopes: list[str]) -> Subscription:
        sub = Subscription(frozenset(scopes))
        self.subscriptions.add(sub)
        if self.task is None or self.task.done():
            self.task = asyncio.ensure_future(self._run())
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        self.subscriptions.discard(sub)

    async def _run(self) -> None:
        cursor = utcnow()
        seen: dict[tuple[str, str], datetime] = {}
        while self.subscriptions:
            now = utcnow()
            scopes = sorted({s for sub in self.subscriptions for s in sub.scopes})
            for scope in scopes:
                for change in await self.spine.changes_between([scope], cursor - OVERLAP, now):
                    if (scope, change.position) not in seen:
                        seen[(scope, change.position)] = change.at
                        self._hand_out(scope, change)
            cursor = now
            seen = {k: at for k, at in seen.items() if at >= now - 2 * OVERLAP}
            await asyncio.sleep(POLL_S)

    def _hand_out(self, scope: str, change: Change) -> None:
        for sub in list(self.subscriptions):
            if scope in sub.scopes:
                try:
                    sub.queue.put_nowait(change)
                except asyncio.QueueFull:
                    self.subscriptions.discard(sub)
                    sub.queue = asyncio.Queue(1)
                    sub.queue.put_nowait(None)


_HUBS: weakref.WeakKeyDictionary[Spine, FeedHub] = weakref.WeakKeyDictionary()


def hub_for(spine: Spine) -> FeedHub:
    hub = _HUBS.get(spine)
    if hub is None:
        hub = _HUBS[spine] = FeedHub(spine)
    return hub
