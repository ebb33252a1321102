"""A delaying HTTP reverse proxy: every request waits a uniform random time (seeded) before it
is forwarded upstream, as a store across a network would answer (DynamoDB: 10-30 ms a request).

bench/prefetch.py puts it in front of moto, so the product reaches a slow store through its
ordinary store URL (`dynamodb://table?endpoint_url=<proxy url>`), nothing patched. The body and
headers pass through unchanged (DynamoDB's x-amz-crc32 covers the body bytes), hop-by-hop
headers excepted. Runs in its own thread and loop like the tests' stand-ins.
"""
from __future__ import annotations

import asyncio
import random
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import aiohttp
from aiohttp import web

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # `make bench` runs every bench/*.py as a script

from tests.support.threaded_server import ThreadedServer

# Hop-by-hop, or recomputed by aiohttp for the bytes it sends: never copied across.
HOP_HEADERS = frozenset({"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer",
                         "upgrade", "content-length", "host"})


class DelayProxy(ThreadedServer):
    """`DelayProxy(upstream).start()`; `url` is where clients go. `delays` keeps each wait (s),
    `operations` counts the requests by DynamoDB operation."""

    name = "delaying proxy"
    client_max_size = 32 * 1024 * 1024

    def __init__(self, upstream: str, low_s: float = 0.010, high_s: float = 0.030, seed: int = 27) -> None:
        super().__init__()
        if not 0 <= low_s <= high_s:
            raise ValueError(f"need 0 <= low_s <= high_s, got {low_s}, {high_s}")
        self.upstream, self.low_s, self.high_s = upstream.rstrip("/"), low_s, high_s
        self._rng = random.Random(seed)
        self.delays: list[float] = []
        self.operations: Counter[str] = Counter()  # by X-Amz-Target (GetItem, PutItem, Query, ...)
        self._session: aiohttp.ClientSession | None = None

    def next_delay(self) -> float:
        """The next wait of the seeded sequence (the proxy's one loop draws them, in arrival order)."""
        delay = self._rng.uniform(self.low_s, self.high_s)
        self.delays.append(delay)
        return delay

    def routes(self, app: web.Application) -> None:
        app.router.add_route("*", "/{tail:.*}", self._forward)
        app.on_cleanup.append(self._close)

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        self.operations[request.headers.get("X-Amz-Target", request.method).rsplit(".", 1)[-1]] += 1
        await asyncio.sleep(self.next_delay())
        if self._session is None:  # made here, on the proxy's own loop
            self._session = aiohttp.ClientSession(auto_decompress=False, timeout=aiohttp.ClientTimeout(total=60))
        async with self._session.request(request.method, self.upstream + request.path_qs, data=body,
                                         headers=_end_to_end(request.headers.items())) as answer:
            payload = await answer.read()
            return web.Response(status=answer.status, body=payload, headers=_end_to_end(answer.headers.items()))

    async def _close(self, app: web.Application) -> None:
        if self._session is not None:
            await self._session.close()


def _end_to_end(headers: Iterable[tuple[str, str]]) -> dict[str, str]:
    return {k: v for k, v in headers if k.lower() not in HOP_HEADERS}
