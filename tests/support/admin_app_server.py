"""The admin app served by uvicorn on 127.0.0.1 and a free port, in its own thread and event loop,
over a fresh seeded SQLite store: for clients that block (Schemathesis drives `requests`), so the
app's store and actors live on a loop the test never blocks."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from desk.portfolio.demo import seed
from gateway.app import create_app
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.admin_helpers import person_auth
from tests.support.console_helpers import actor_pool
from tests.support.gateway_helpers import settings_for

T = TypeVar("T")
START_S = 20.0


class ThreadedGateway:
    """`with ThreadedGateway(path, staff=["p_sam"]) as gw:` gw.url, gw.headers[person], gw.run(coro)."""

    def __init__(self, db_path: Path, *, staff: list[str]) -> None:
        self.db_path, self.staff = db_path, staff
        self.headers: dict[str, dict[str, str]] = {}
        self.openapi: dict[str, Any] = {}
        self.spine: Spine | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.servers[0].sockets[0].getsockname()[1]}"

    def run(self, coro_of: Callable[[Spine], Awaitable[T]]) -> T:
        """Run `coro_of(spine)` on the app's own loop (the store belongs to it)."""
        assert self._loop is not None and self.spine is not None
        return asyncio.run_coroutine_threadsafe(coro_of(self.spine), self._loop).result(START_S)

    def __enter__(self) -> ThreadedGateway:
        self._thread = threading.Thread(target=self._main, name="gateway", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_S):
            raise RuntimeError("the gateway did not start")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(START_S)

    def _main(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(self._serve())
        self._loop.close()

    async def _serve(self) -> None:
        spine = self.spine = Spine(SqliteStore(self.db_path))
        await seed(spine)
        for person in self.staff:
            self.headers[person] = await person_auth(spine, person)
        from gateway.context import GatewayContext
        from gateway.settings import TakeoverOptions

        context = GatewayContext(settings_for(spine, None), spine, actor_pool(spine), takeover=TakeoverOptions())
        app = create_app(context)
        self.openapi = app.openapi()
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                                     lifespan="off"))
        serving = asyncio.create_task(self._server.serve())
        while not self._server.started:
            await asyncio.sleep(0.01)
        self._ready.set()
        await serving
        await context.http.aclose()
        await spine.store.close()
