"""Voice test helpers: a bridge server (the plain asyncio CallBridge behind a websockets server)
that the Twilio media-stream stand-in connects to, bridged to the ElevenLabs stand-in."""
from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from websockets.asyncio.server import ServerConnection, serve

from actors.client.calls import CallService as VoiceCalls
from gateway.twilio.twiml_voice import stream_parameters
from gateway.voice.bridge import CallBridge
from gateway.voice.elevenlabs import AgentEndpoint

SECRET = "twilio-auth-token-for-tests"
ACCOUNT = "AC" + "7" * 32
YALE_LINE = "+12065550100"
MARCUS = "+12065551001"
UNKNOWN = "+14155559876"


def in_process_calls(spine, tools=None, **options) -> VoiceCalls:
    """VoiceCalls whose sessions run on a PersonHost in this process (real PersonActors, the
    offline model, an in-process Dispatcher unless `tools` says otherwise)."""
    from actors.dispatcher.dispatcher import Dispatcher
    from actors.host.in_process import InProcessSessions
    from actors.model.offline import OfflineModel
    from actors.protocol.turn import TurnDeps

    tools = tools or Dispatcher(spine)
    return VoiceCalls(spine, tools, InProcessSessions(TurnDeps(spine=spine, model=OfflineModel(), tools=tools)),
                      **options)


def twilio_sid(prefix: str, tag: str) -> str:
    """A SID in Twilio's shape (two letters, 32 hex digits), stable for a test's tag."""
    import hashlib

    return prefix + hashlib.md5(tag.encode()).hexdigest()


def start_parameters(call_sid: str, caller: str, called: str = YALE_LINE, verified: bool = False) -> dict[str, str]:
    """What the signed voice webhook would have put in the stream's <Parameter>s (`verified`: its
    StirVerstat was TN-Validation-Passed-A)."""
    return stream_parameters(SECRET, call_sid, caller, called, verified)


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


VOICE_TOKEN = "voice-token-for-tests"
WEBHOOK_SECRET = "elevenlabs-webhook-secret-for-tests"
PUBLIC_URL = "https://clara.example.test"


def voice_settings(**overrides):
    from gateway.settings import Settings

    values = dict(voice_token=VOICE_TOKEN, elevenlabs_webhook_secret=WEBHOOK_SECRET, twilio_auth_token=SECRET,
                  public_url=PUBLIC_URL)
    return Settings(**{**values, **overrides})


def voice_app(services):
    """The gateway's app with the given voice services and no GatewayContext (no Ray; the SMS and
    admin routes are there but have nothing to serve with)."""
    from gateway.app import new_app

    app = new_app()
    app.state.voice = services  # what gateway.voice.routes.get_voice reads before it builds its own
    return app


def client_for(app):
    import httpx

    return httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=PUBLIC_URL)


class SlowStore:
    """A store that answers, but only after `delay_s` (a degraded DynamoDB, a locked SQLite)."""

    def __init__(self, inner, delay_s: float) -> None:
        self.inner, self.delay_s = inner, delay_s

    async def _slow(self, op):
        await asyncio.sleep(self.delay_s)
        return await op

    async def get(self, *args, **kwargs):
        return await self._slow(self.inner.get(*args, **kwargs))

    async def query(self, *args, **kwargs):
        return await self._slow(self.inner.query(*args, **kwargs))

    async def query_index(self, *args, **kwargs):
        return await self._slow(self.inner.query_index(*args, **kwargs))

    async def put(self, *args, **kwargs):
        return await self._slow(self.inner.put(*args, **kwargs))

    async def delete(self, *args, **kwargs):
        return await self._slow(self.inner.delete(*args, **kwargs))

    async def close(self) -> None:
        pass
