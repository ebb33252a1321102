"""A Twilio Media Streams client stand-in: connects to the bridge as Twilio does after
`<Connect><Stream>`, sends `connected`, `start`, `media`, `mark`, `stop` in Twilio's shapes, and
records what the server sends back (`media`, `mark`, `clear`). Like Twilio, it acknowledges each
`mark` it receives once the audio before it has "played" (immediately here)."""
from __future__ import annotations

import asyncio
import base64
import json
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

WAIT_S = 5.0
FRAME_BYTES = 160  # 20 ms of 8 kHz mu-law


def frame(seed: int) -> str:
    """A distinguishable 20 ms mu-law frame, base64 as Twilio sends it."""
    return base64.b64encode(bytes((seed + i) % 256 for i in range(FRAME_BYTES))).decode()


class TwilioMediaClient:
    def __init__(self, url: str, *, stream_sid: str = "MZ0001", call_sid: str = "CA0001",
                 account_sid: str = "AC0001", ack_marks: bool = True, headers: dict[str, str] | None = None) -> None:
        self.url, self.stream_sid, self.call_sid, self.account_sid = url, stream_sid, call_sid, account_sid
        self.ack_marks, self.headers = ack_marks, headers or {}
        self.received: list[dict] = []
        self.changed = asyncio.Condition()
        self.closed = asyncio.Event()
        self.close_code: int | None = None
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task | None = None
        self._sequence = 0
        self._chunk = 0

    async def __aenter__(self) -> TwilioMediaClient:
        self._ws = await connect(self.url, additional_headers=self.headers, max_size=2**22)
        self._reader = asyncio.create_task(self._read())
        await self._send({"event": "connected", "protocol": "Call", "version": "1.0.0"})
        return self

    async def __aexit__(self, *exc) -> None:
        await self._ws.close()
        await asyncio.wait_for(self._reader, WAIT_S)

    async def _send(self, message: dict[str, Any]) -> None:
        if message["event"] != "connected":
            self._sequence += 1
            message = {**message, "sequenceNumber": str(self._sequence)}
        await self._ws.send(json.dumps(message))

    async def start(self, custom: dict[str, str] | None = None) -> None:
        await self._send({"event": "start", "streamSid": self.stream_sid, "start": {
            "accountSid": self.account_sid, "streamSid": self.stream_sid, "callSid": self.call_sid,
            "tracks": ["inbound"], "customParameters": custom or {},
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}})

    async def media(self, payload: str) -> None:
        self._chunk += 1
        await self._send({"event": "media", "streamSid": self.stream_sid, "media": {
            "track": "inbound", "chunk": str(self._chunk), "timestamp": str(self._chunk * 20), "payload": payload}})

    async def mark(self, name: str) -> None:
        await self._send({"event": "mark", "streamSid": self.stream_sid, "mark": {"name": name}})

    async def stop(self) -> None:
        await self._send({"event": "stop", "streamSid": self.stream_sid,
                          "stop": {"accountSid": self.account_sid, "callSid": self.call_sid}})

    async def hang_up(self) -> None:
        """What Twilio does when the caller hangs up: `stop`, then the socket closes."""
        await self.stop()
        await self._ws.close()

    def of(self, event: str) -> list[dict]:
        return [m for m in self.received if m.get("event") == event]

    def payloads(self) -> list[str]:
        return [m["media"]["payload"] for m in self.of("media")]

    async def wait_for(self, event: str, count: int = 1) -> list[dict]:
        async with asyncio.timeout(WAIT_S), self.changed:
            await self.changed.wait_for(lambda: len(self.of(event)) >= count or self.closed.is_set())
        return self.of(event)

    async def wait_closed(self) -> int | None:
        await asyncio.wait_for(self.closed.wait(), WAIT_S)
        return self.close_code

    async def next_message(self) -> dict:
        """The next server message after what has been seen so far (used by the benchmark)."""
        seen = len(self.received)
        async with asyncio.timeout(WAIT_S), self.changed:
            await self.changed.wait_for(lambda: len(self.received) > seen or self.closed.is_set())
        return self.received[seen]

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                message = json.loads(raw)
                self.received.append(message)
                if self.ack_marks and message.get("event") == "mark":
                    await self.mark(message["mark"]["name"])
                async with self.changed:
                    self.changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = self._ws.close_code
            self.closed.set()
            async with self.changed:
                self.changed.notify_all()
