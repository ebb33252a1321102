"""An aiohttp server on 127.0.0.1 and a free port, in its own thread and event loop, so a test or
bench that blocks its own loop still gets answers. The local stand-ins of external services
(Anthropic, Twilio, Mailgun, Telegram) subclass it and add their routes in `routes(app)`; they
keep what they received in a `Recording`, and read a request with `form_of` and `basic_auth`."""
from __future__ import annotations

import asyncio
import threading
import time

import aiohttp
from aiohttp import web


class ThreadedServer:
    name = "stand-in"
    client_max_size = 1024 * 1024

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def routes(self, app: web.Application) -> None:
        raise NotImplementedError

    def start(self):
        ready = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(ready,), name=self.name, daemon=True)
        self._thread.start()
        if not ready.wait(10):
            raise RuntimeError(f"the {self.name} did not start")
        return self

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = self._thread = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _run(self, ready: threading.Event) -> None:
        loop = self._loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        app = web.Application(client_max_size=self.client_max_size)
        self.routes(app)
        runner = web.AppRunner(app, shutdown_timeout=0.1)
        loop.run_until_complete(runner.setup())
        site = web.TCPSite(runner, "127.0.0.1", 0)
        loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]  # a started TCPSite has its server
        ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        pending = asyncio.all_tasks(loop)  # handlers still sleeping (a scripted hang, a callback)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.wait(pending))
        # The connections cleanup closed close their sockets on the loop's next turn: take it, or
        # their transports outlive the loop, unclosed, for the collector to find in a later test.
        loop.run_until_complete(asyncio.sleep(0))
        loop.close()


class RecordingServer(ThreadedServer):
    """A stand-in that keeps what it received in `requests` (a Recording); `delivered` tells the
    records the service accepted for delivery from those it refused."""

    def __init__(self) -> None:
        super().__init__()
        self.requests = Recording()

    def delivered(self, record) -> bool:
        raise NotImplementedError

    def answered(self, record, response: web.Response) -> web.Response:
        """Keep `record` with the status the stand-in answered it with; returns the answer."""
        record.status = response.status
        self.requests.add(record)
        return response

    def wait_for_sends(self, count: int, timeout_s: float = 20.0) -> list:
        """The delivered records, once there are `count` of them (or all there are at the timeout)."""
        return self.requests.wait_for(count, self.delivered, timeout_s)


class Recording:
    """What a stand-in received, readable from the test's thread while the server's loop appends:
    `add` from the server, `wait_for` (block until enough matching records) from the test."""

    def __init__(self) -> None:
        self.items: list = []
        self._changed = threading.Condition()

    def add(self, item) -> None:
        with self._changed:
            self.items.append(item)
            self._changed.notify_all()

    def clear(self) -> None:
        with self._changed:
            self.items.clear()

    def wait_for(self, count: int, matching, timeout_s: float = 20.0) -> list:
        """The matching records once there are `count` of them (or all there are at the timeout)."""
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while len(found := [i for i in self.items if matching(i)]) < count and time.monotonic() < deadline:
                self._changed.wait(max(0.0, deadline - time.monotonic()))
            return found


async def form_of(request: web.Request) -> dict[str, str]:
    """The request's form fields (urlencoded or multipart), files left out."""
    return {k: v for k, v in (await request.post()).items() if isinstance(v, str)}


def basic_auth(request: web.Request) -> tuple[str, str] | None:
    """(login, password) of the request's HTTP basic auth, or None when absent or malformed."""
    header = request.headers.get("Authorization", "")
    try:
        given = aiohttp.BasicAuth.decode(header) if header else None
    except ValueError:
        return None
    return (given.login, given.password) if given else None
