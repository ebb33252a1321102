"""Local stand-ins for ElevenLabs, speaking the real protocol.

`AgentServer`: the Agents websocket (`/v1/convai/conversation?agent_id=...`). Each connection
runs a script of steps against the client (the bridge) and records every message it receives:
the scripted agent sends `conversation_initiation_metadata`, `audio`, `ping`, `client_tool_call`,
`interruption`, `agent_response`, `user_transcript` exactly as ElevenLabs shapes them.

`ApiServer`: the REST API the gateway uses: `GET /v1/convai/conversation/get-signed-url`
and `PATCH /v1/convai/agents/{agent_id}`, both behind the `xi-api-key` header.
"""
from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlparse

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

WAIT_S = 5.0


# -- script steps -------------------------------------------------------------------------------
def metadata(conversation_id: str = "conv_1", fmt: str = "ulaw_8000") -> dict:
    return {"type": "conversation_initiation_metadata",
            "conversation_initiation_metadata_event": {"conversation_id": conversation_id,
                                                       "agent_output_audio_format": fmt,
                                                       "user_input_audio_format": fmt}}


def audio(payload_b64: str, event_id: int) -> dict:
    return {"type": "audio", "audio_event": {"audio_base_64": payload_b64, "event_id": event_id}}


def ping(event_id: int, ping_ms: int | None = None) -> dict:
    return {"type": "ping", "ping_event": {"event_id": event_id, "ping_ms": ping_ms}}


def interruption(event_id: int) -> dict:
    return {"type": "interruption", "interruption_event": {"event_id": event_id}}


def tool_call(name: str, parameters: dict, tool_call_id: str) -> dict:
    return {"type": "client_tool_call",
            "client_tool_call": {"tool_name": name, "tool_call_id": tool_call_id, "parameters": parameters}}


def agent_response(text: str) -> dict:
    return {"type": "agent_response", "agent_response_event": {"agent_response": text}}


def user_transcript(text: str) -> dict:
    return {"type": "user_transcript", "user_transcription_event": {"user_transcript": text}}


@dataclass
class Send:
    message: dict


@dataclass
class Expect:
    """Wait until `count` received messages match: by `type`, or by a top-level key
    (`user_audio_chunk`), optionally with equal fields (`event_id=7`)."""

    kind: str
    count: int = 1
    fields: dict[str, Any] = field(default_factory=dict)


@dataclass
class Echo:
    """Answer every user audio chunk with an agent audio event carrying the same payload,
    until the client goes away (the relay benchmark's far end)."""


@dataclass
class Close:
    code: int = 1000


def standard_script(*middle: Any) -> list[Any]:
    """What every real conversation starts with: client data in, metadata out."""
    return [Expect("conversation_initiation_client_data"), Send(metadata()), *middle]


# -- the Agents websocket -----------------------------------------------------------------------
@dataclass
class Conversation:
    path: str
    query: dict[str, str]
    headers: dict[str, str]
    received: list[dict] = field(default_factory=list)
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    changed: asyncio.Condition = field(default_factory=asyncio.Condition)

    def of(self, kind: str) -> list[dict]:
        return [m for m in self.received if m.get("type") == kind or kind in m]

    def matching(self, step: Expect) -> list[dict]:
        return [m for m in self.of(step.kind) if all(m.get(k) == v for k, v in step.fields.items())]


class AgentServer:
    def __init__(self, script: list[Any] | None = None, *, require_signature: str | None = None) -> None:
        self.script = script if script is not None else standard_script()
        self.require_signature = require_signature
        self.conversations: list[Conversation] = []
        self.new_conversation = asyncio.Event()
        self._server = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/v1/convai/conversation"

    async def __aenter__(self) -> AgentServer:
        self._server = await serve(self._handle, "127.0.0.1", 0, max_size=2**22)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc) -> None:
        self._server.close()
        await self._server.wait_closed()

    async def wait_conversation(self, index: int = 0) -> Conversation:
        async with asyncio.timeout(WAIT_S):
            while len(self.conversations) <= index:
                self.new_conversation.clear()
                await self.new_conversation.wait()
        return self.conversations[index]

    async def _handle(self, ws: ServerConnection) -> None:
        parsed = urlparse(ws.request.path)
        query = {k: v[-1] for k, v in parse_qs(parsed.query).items()}
        if self.require_signature and query.get("conversation_signature") != self.require_signature:
            await ws.close(4001, "invalid conversation signature")
            return
        convo = Conversation(parsed.path, query, dict(ws.request.headers))
        self.conversations.append(convo)
        self.new_conversation.set()
        reader = asyncio.create_task(self._read(ws, convo))
        try:
            for step in self.script:
                await self._run(step, ws, convo)
            await reader
        except (ConnectionClosed, TimeoutError):
            pass
        finally:
            reader.cancel()
            convo.closed.set()

    async def _read(self, ws: ServerConnection, convo: Conversation) -> None:
        try:
            async for raw in ws:
                message = json.loads(raw)
                convo.received.append(message)
                async with convo.changed:
                    convo.changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            async with convo.changed:
                convo.changed.notify_all()

    async def _run(self, step: Any, ws: ServerConnection, convo: Conversation) -> None:
        if isinstance(step, Send):
            await ws.send(json.dumps(step.message))
        elif isinstance(step, Expect):
            async with asyncio.timeout(WAIT_S), convo.changed:
                await convo.changed.wait_for(lambda: len(convo.matching(step)) >= step.count
                                             or ws.state.name == "CLOSED")
        elif isinstance(step, Echo):
            await self._echo(ws, convo)
        elif isinstance(step, Close):
            await ws.close(step.code)

    async def _echo(self, ws: ServerConnection, convo: Conversation) -> None:
        # From the first message on: a bridge relays the caller's audio as soon as it has sent the
        # client data, so chunks can arrive before this step starts, and each must be answered.
        seen, event_id = 0, 0
        while ws.state.name != "CLOSED":
            async with convo.changed:
                await convo.changed.wait_for(lambda seen=seen: len(convo.received) > seen or ws.state.name == "CLOSED")
            fresh, seen = convo.received[seen:], len(convo.received)
            for message in fresh:
                if "user_audio_chunk" in message:
                    event_id += 1
                    await ws.send(json.dumps(audio(message["user_audio_chunk"], event_id)))


# -- the REST API -------------------------------------------------------------------------------
class ApiServer:
    def __init__(self, *, api_key: str, ws_url: str = "", signature: str = "sig_test") -> None:
        self.api_key, self.ws_url, self.signature = api_key, ws_url, signature
        self.requests: list[dict] = []
        self.agents: dict[str, dict] = {}
        app = Starlette(routes=[
            Route("/v1/convai/conversation/get-signed-url", self._signed_url, methods=["GET"]),
            Route("/v1/convai/agents/{agent_id}", self._patch_agent, methods=["PATCH"]),
        ])
        self._server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                                                     lifespan="off"))
        self._task: asyncio.Task | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.servers[0].sockets[0].getsockname()[1]}"

    async def __aenter__(self) -> ApiServer:
        self._task = asyncio.create_task(self._server.serve())
        async with asyncio.timeout(WAIT_S):
            while not self._server.started:
                await asyncio.sleep(0.01)
        return self

    async def __aexit__(self, *exc) -> None:
        self._server.should_exit = True
        await self._task

    def _denied(self, request: Request) -> JSONResponse | None:
        if request.headers.get("xi-api-key") != self.api_key:
            return JSONResponse({"detail": {"status": "invalid_api_key", "message": "Invalid API key"}},
                                status_code=401)
        return None

    async def _signed_url(self, request: Request) -> JSONResponse:
        self.requests.append({"method": "GET", "path": request.url.path, "query": dict(request.query_params)})
        agent_id = request.query_params.get("agent_id")
        if denied := self._denied(request):
            return denied
        if not agent_id:
            return JSONResponse({"detail": "agent_id is required"}, status_code=422)
        url = f"{self.ws_url}?agent_id={agent_id}&conversation_signature={self.signature}"
        return JSONResponse({"signed_url": url})

    async def _patch_agent(self, request: Request) -> JSONResponse:
        body = await request.json()
        agent_id = request.path_params["agent_id"]
        self.requests.append({"method": "PATCH", "path": request.url.path, "body": body})
        if denied := self._denied(request):
            return denied
        self.agents[agent_id] = body
        return JSONResponse({"agent_id": agent_id, "name": body.get("name", "Clara"),
                             "conversation_config": body.get("conversation_config", {})})
