"""A keep-alive HTTP/1.1 client that does as little as it can, for benches whose client shares
the machine's CPUs with the server it measures (aiohttp spends several times the CPU per request):
requests are bytes built before the clock starts, and a response body is decoded after it stops."""
from __future__ import annotations

import asyncio
import socket

import httptools


class KeepAlive(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection, one request at a time, the response parsed by
    httptools (uvicorn's own parser). The caller sends request bytes it built beforehand."""

    def __init__(self) -> None:
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.answer: asyncio.Future | None = None
        self.body: list[bytes] = []

    @classmethod
    async def open(cls, port: int) -> KeepAlive:
        _, conn = await asyncio.get_running_loop().create_connection(cls, "127.0.0.1", port)
        conn.transport.get_extra_info("socket").setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn

    def connection_made(self, transport: asyncio.Transport) -> None:
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.parser.feed_data(data)

    def on_body(self, body: bytes) -> None:
        self.body.append(body)

    def on_message_complete(self) -> None:
        self.answer.set_result((self.parser.get_status_code(), b"".join(self.body)))

    def connection_lost(self, exc: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc or ConnectionError("server closed the connection"))

    @property
    def closed(self) -> bool:
        """The server closed this connection (an idle keep-alive timeout, say): open another."""
        return self.transport is None or self.transport.is_closing()

    async def send(self, request: bytes) -> tuple[int, bytes]:
        if self.closed:  # a write to it would vanish, and the answer never come
            raise ConnectionError("the connection is closed")
        self.body, self.answer = [], asyncio.get_running_loop().create_future()
        self.transport.write(request)
        return await self.answer
