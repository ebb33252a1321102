"""Voice test helpers: a bridge server (the plain asyncio CallBridge behind a websockets server)
that the Twilio media-stream stand-in connects to, bridged to the ElevenLabs stand-in."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from websockets.asyncio.server import ServerConnection, serve

from actors.voice_call import VoiceCalls
from gateway.voice.bridge import CallBridge
from gateway.voice.elevenlabs import AgentEndpoint
from gateway.voice.twiml import stream_parameters

SECRET = "twilio-auth-token-for-tests"
YALE_LINE = "+12065550100"
MARCUS = "+12065551001"
UNKNOWN = "+14155559876"


def start_parameters(call_sid: str, caller: str, called: str = YALE_LINE) -> dict[str, str]:
    """What the signed voice webhook would have put in the stream's <Parameter>s."""
    return stream_parameters(SECRET, call_sid, caller, called)


class BridgeServer:
    """Each connection runs one CallBridge; `outcomes` holds why each ended."""

    def __init__(self, calls: VoiceCalls, endpoint: AgentEndpoint, **options) -> None:
        self.calls, self.endpoint, self.options = calls, endpoint, options
        self.outcomes: list[str] = []
        self.done = asyncio.Event()
        self.port = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/voice/twilio/stream"

    async def _handle(self, ws: ServerConnection) -> None:
        bridge = CallBridge(ws, self.calls, self.endpoint, secret=SECRET, **self.options)
        self.outcomes.append(await bridge.run())
        self.done.set()

    async def wait_done(self, timeout: float = 5.0) -> str:
        await asyncio.wait_for(self.done.wait(), timeout)
        return self.outcomes[-1]


@asynccontextmanager
async def bridge_server(calls: VoiceCalls, endpoint: AgentEndpoint, **options) -> AsyncIterator[BridgeServer]:
    server = BridgeServer(calls, endpoint, **options)
    async with serve(server._handle, "127.0.0.1", 0, max_size=2**22) as ws_server:
        server.port = ws_server.sockets[0].getsockname()[1]
        yield server
