"""The gateway on a real loopback port over real PersonActors (in-process host, offline model), for
the console's stream and browser tests: a live stream needs a real server (an ASGI transport in
memory waits for the whole body)."""
from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn

from gateway.app import create_app
from gateway.context import GatewayContext
from spine.repo import Spine
from tests.support.console_helpers import actor_pool
from tests.support.gateway_helpers import settings_for


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@asynccontextmanager
async def serve_console(spine: Spine) -> AsyncIterator[str]:
    """The base URL of a gateway serving until the block ends."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    context = GatewayContext(settings_for(spine, None, public_url=base), spine, actor_pool(spine))
    server = uvicorn.Server(uvicorn.Config(create_app(context), host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    try:
        yield base
    finally:
        server.should_exit = True
        await task
        await context.sms.drain()
        await context.http.aclose()
