"""A loopback TCP relay that can be shut like a stopped server: closed, its port refuses new
connections and every open one is reset (so pooled keep-alive connections fail too, as they do
when a server process dies); opened again, on the same port, it relays as before.

bench/chaos.py puts one in front of the moto server: the gateway's GATEWAY_STORE points at the
relay, and closing it is "the DynamoDB endpoint stopped" without losing moto's tables.
"""
from __future__ import annotations

import asyncio
import socket
import threading


class TcpGate:
    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self._loop = asyncio.new_event_loop()
        self._server: asyncio.base_events.Server | None = None
        self._open: set[asyncio.StreamWriter] = set()
        threading.Thread(target=self._loop.run_forever, name="tcp-gate", daemon=True).start()
        self.open()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def open(self) -> None:
        asyncio.run_coroutine_threadsafe(self._listen(), self._loop).result(10)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._shut(), self._loop).result(10)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port, reuse_address=True)

    async def _shut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._open):
            writer.transport.abort()  # a reset, not a polite close: the process is gone
        self._open.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            writer.transport.abort()
            return
        self._open.update((writer, up_writer))
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer), return_exceptions=True)
        self._open.difference_update((writer, up_writer))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:  # one side ended: end the other
        writer.close()
