"""The media bridge: one Twilio Media Stream <-> one ElevenLabs Agents conversation.

A plain asyncio object between two text websockets. Audio crosses untouched (both sides speak
base64 mu-law 8 kHz); control events are translated (`interruption` -> Twilio `clear`, `ping` ->
`pong`); tool calls run through the DispatcherActor with the caller's authority, off the audio
path; what the caller says can start a speculative prefetch whose result reaches the agent as a
`contextual_update`. When either side closes or fails, both close and the call ends.

Only Twilio opens a stream (the route checks the upgrade's X-Twilio-Signature), and a stream is
bound to the signed call that created it: its `start` must carry the call token our signed voice
webhook minted for that CallSid, and a CallSid gets one stream, ever. A refused or malformed start
ends the stream before any agent session is dialed, with a `voice/stream-refused` event.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

import spine.keys as keys
from actors.client.call_session import LiveCall
from actors.client.calls import CallService
from gateway.errors import GatewayError
from gateway.twilio.twiml_voice import stir_verified, verified_caller
from gateway.voice.elevenlabs import AgentEndpoint, ElevenLabsError
from gateway.voice.elevenlabs_wire import (
    ULAW_8000,
    AgentAudio,
    AgentEvent,
    AgentResponse,
    AgentResponseCorrection,
    ClientToolCall,
    ClientToolResult,
    ContextualUpdate,
    ConversationInitiationMetadata,
    Interruption,
    Ping,
    Pong,
    UserAudioChunk,
    UserTranscript,
    parse_agent_event,
)
from gateway.voice.frames import MalformedMessage, UnknownMessage
from gateway.voice.payload import initiation_data
from gateway.voice.texts import CallTexts
from gateway.voice.transfer_return import keep_message, return_call_sid, returned_start
from gateway.voice.transfer_twiml import returning_transfer
from gateway.voice.twilio_media import (
    MarkBody,
    OutboundMediaBody,
    TwilioClear,
    TwilioMark,
    TwilioMarkOut,
    TwilioMedia,
    TwilioMediaOut,
    TwilioStart,
    TwilioStop,
    parse_twilio_event,
)
from spine.context import Channel
from spine.events import emit_event
from spine.records import EventKind

log = logging.getLogger("clara.voice.bridge")

START_TIMEOUT_S = 10.0
CONNECT_TIMEOUT_S = 5.0
POLICY_VIOLATION = 1008  # websocket close code: the peer broke our rules
FAILURES = ("agent_unreachable", "error")


class SocketClosed(GatewayError):
    """A text socket's peer went away (raised by adapters of non-websockets sockets)."""


class TextSocket(Protocol):
    """What the bridge needs of the Twilio side: websockets' connections fit, Starlette's adapts."""

    async def recv(self) -> str | bytes: ...

    async def send(self, message: str) -> None: ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


CLOSED = (ConnectionClosed, SocketClosed)


class CallBridge:
    def __init__(self, twilio: TextSocket, calls: CallService, endpoint: AgentEndpoint, *, secret: str | None,
                 texts: CallTexts | None = None, start_timeout_s: float = START_TIMEOUT_S,
                 connect_timeout_s: float = CONNECT_TIMEOUT_S) -> None:
        """`secret` checks the stream parameters' call token (TWILIO_AUTH_TOKEN); a start without
        a valid token is refused. `texts` sends what a tool asks to text (the step-up code)."""
        self.twilio, self.calls, self.endpoint, self.secret = twilio, calls, endpoint, secret
        self.texts = texts or CallTexts(calls.spine, None)
        self.start_timeout_s, self.connect_timeout_s = start_timeout_s, connect_timeout_s
        self.call: LiveCall | None = None
        self.agent: ClientConnection | None = None
        self.stream_sid = ""
        self.returned: str | None = None  # the transfer the caller is back from (gateway.voice.transfer_return)
        self.last_interrupt_id = 0
        self.played_mark: str | None = None
        self._side_tasks: set[asyncio.Task] = set()

    async def run(self) -> str:
        """Bridge one call; returns why it ended."""
        try:
            start = await self._twilio_start()
        except MalformedMessage as exc:
            return await self._refuse("malformed_start", str(exc))
        if start is None:
            await self._close_twilio()
            return "no_start"
        self.stream_sid = start.stream_sid
        params, call_sid = start.start.customParameters, start.start.callSid
        caller = verified_caller(self.secret, call_sid, params)
        if caller is None:
            return await self._refuse("unsigned_start", "start carries no valid call token for its CallSid")
        # A caller back from a transfer nobody took is a second stream of the call, its own interaction.
        self.returned = returning_transfer(self.secret, call_sid, params)
        leg_sid = return_call_sid(call_sid, self.returned) if self.returned else call_sid
        if not await self.calls.spine.mark_once(keys.voice_stream_marker(leg_sid)):
            return await self._refuse("second_stream", "this CallSid already had its stream")
        opening = asyncio.create_task(self.calls.open(caller_number=caller, call_sid=leg_sid,
                                                      called_number=params.get("called", ""),
                                                      verified=stir_verified(params)))
        reason = "agent_unreachable"
        try:
            self.agent, self.call = await asyncio.gather(self._connect_agent(), opening)
            reason = await self._converse()
        except (ElevenLabsError, InvalidHandshake, InvalidURI, OSError, TimeoutError, ConnectionClosed) as exc:
            log.error("voice bridge: agent websocket unavailable: %s", exc)
        finally:
            await self._finish(opening, reason)
        return reason

    async def _twilio_start(self) -> TwilioStart | None:
        try:
            async with asyncio.timeout(self.start_timeout_s):
                while True:
                    try:
                        event = parse_twilio_event(await self.twilio.recv())
                    except MalformedMessage as exc:
                        if exc.kind == "start":
                            raise
                        log.warning("twilio stream: %s", exc)
                        continue
                    except UnknownMessage as exc:
                        log.warning("twilio stream: %s", exc)
                        continue
                    if isinstance(event, TwilioStart):
                        return event
                    if isinstance(event, TwilioStop):
                        return None
        except (TimeoutError, *CLOSED):
            return None

    async def _refuse(self, reason: str, detail: str) -> str:
        """End a stream we will not bridge: nothing dialed, nobody's call touched, an event."""
        log.warning("voice stream refused (%s): %s", reason, detail)
        await emit_event(self.calls.spine, EventKind.STREAM_REFUSED, reason, channel=Channel.VOICE, address=None,
                         property_id=None, interaction_id=None, detail={"detail": detail[:200]})
        try:
            await self.twilio.close(POLICY_VIOLATION, reason)
        except Exception as exc:  # noqa: BLE001 - already gone
            log.debug("twilio close: %r", exc)
        return f"refused_{reason}"

    def _live(self) -> tuple[ClientConnection, LiveCall]:
        """The agent socket and the call: both open from `_converse` on, where the pumps start."""
        assert self.agent is not None and self.call is not None
        return self.agent, self.call

    async def _connect_agent(self) -> ClientConnection:
        async with asyncio.timeout(self.connect_timeout_s):
            return await connect(await self.endpoint.url(), max_size=2**22, open_timeout=self.connect_timeout_s)

    async def _converse(self) -> str:
        assert self.agent is not None and self.call is not None
        if self.call.start.suppressed:
            await emit_event(self.calls.spine, EventKind.SPAM_DROPPED, "voice_bridge", channel=Channel.VOICE,
                             address=None, property_id=self.call.start.property_id,
                             interaction_id=self.call.interaction_id)
            return "suppressed"
        start = await returned_start(self.calls.spine, self.call.start, self.returned)
        await self.agent.send(initiation_data(start).model_dump_json(exclude_none=True))
        pumps = [asyncio.create_task(self._from_twilio()), asyncio.create_task(self._from_agent())]
        done, pending = await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        first = done.pop()
        if first.exception() is not None:
            log.error("voice bridge failed: %r", first.exception())
            return "error"
        return first.result()

    async def _from_twilio(self) -> str:
        agent, _ = self._live()
        while True:
            try:
                raw = await self.twilio.recv()
            except CLOSED:
                return "twilio_closed"
            try:
                event = parse_twilio_event(raw)
            except UnknownMessage as exc:
                log.warning("twilio stream: %s", exc)
                continue
            if isinstance(event, TwilioMedia):
                if event.media.track in ("inbound", "inbound_track"):
                    try:
                        await agent.send(UserAudioChunk(user_audio_chunk=event.media.payload).model_dump_json())
                    except ConnectionClosed:
                        return "agent_closed"
            elif isinstance(event, TwilioMark):
                self.played_mark = event.mark.name
            elif isinstance(event, TwilioStop):
                return "twilio_stop"

    async def _from_agent(self) -> str:
        agent, _ = self._live()
        try:
            async for raw in agent:
                try:
                    event = parse_agent_event(raw)
                except UnknownMessage:
                    continue  # vad_score, tentative responses, future events: not ours to relay
                if isinstance(event, AgentAudio):
                    await self._play(event)
                else:
                    await self._control(event)
        except CLOSED:
            pass
        return "agent_closed"

    async def _play(self, event: AgentAudio) -> None:
        if event.audio_event.event_id and event.audio_event.event_id <= self.last_interrupt_id:
            return  # audio of a turn the caller already interrupted
        await self.twilio.send(TwilioMediaOut(streamSid=self.stream_sid,
                                              media=OutboundMediaBody(payload=event.audio_event.audio_base_64))
                               .model_dump_json())
        # Twilio echoes the mark when the audio before it has played: how far playback got.
        await self.twilio.send(TwilioMarkOut(streamSid=self.stream_sid,
                                             mark=MarkBody(name=f"audio-{event.audio_event.event_id}")).model_dump_json())

    async def _control(self, event: AgentEvent) -> None:
        agent, call = self._live()
        if isinstance(event, Ping):
            await agent.send(Pong(event_id=event.ping_event.event_id).model_dump_json())
        elif isinstance(event, Interruption):
            self.last_interrupt_id = max(self.last_interrupt_id, event.interruption_event.event_id)
            await self.twilio.send(TwilioClear(streamSid=self.stream_sid).model_dump_json())
        elif isinstance(event, ClientToolCall):
            self._spawn(self._tool(event))
        elif isinstance(event, UserTranscript):
            call.heard_user(event.user_transcription_event.user_transcript)
            self._spawn(self._prefetch(event.user_transcription_event.user_transcript))
        elif isinstance(event, AgentResponse):
            call.heard_agent(event.agent_response_event.agent_response)
        elif isinstance(event, AgentResponseCorrection):
            body = event.agent_response_correction_event
            call.corrected_agent(body.original_agent_response, body.corrected_agent_response)
        elif isinstance(event, ConversationInitiationMetadata):
            self._metadata(event)

    def _metadata(self, event: ConversationInitiationMetadata) -> None:
        meta = event.conversation_initiation_metadata_event
        _, call = self._live()
        call.conversation_id = meta.conversation_id
        for side, fmt in (("agent_output", meta.agent_output_audio_format), ("user_input", meta.user_input_audio_format)):
            if fmt and fmt != ULAW_8000:
                # Twilio only plays and sends mu-law 8 kHz; the agent must be configured for it.
                log.error("voice agent %s format is %s, not %s: audio will be garbled", side, fmt, ULAW_8000)
                call.note(EventKind.BRIDGE, f"{side}_format_{fmt}")

    async def _tool(self, event: ClientToolCall) -> None:
        body = event.client_tool_call
        agent, call = self._live()
        result = await self.texts.deliver(await call.run_tool(body.tool_name, body.parameters, body.tool_call_id))
        answer = ClientToolResult(tool_call_id=body.tool_call_id, result=result.content or result.reason,
                                  is_error=result.is_error)
        await agent.send(answer.model_dump_json())

    async def _prefetch(self, heard: str) -> None:
        agent, call = self._live()
        for result in await call.prefetch(heard):
            text = f"Looked up ahead of time ({result.name}): {result.content}"
            await agent.send(ContextualUpdate(text=text).model_dump_json())

    def _spawn(self, coro) -> None:
        task = asyncio.create_task(coro)
        self._side_tasks.add(task)
        task.add_done_callback(self._side_done)

    def _side_done(self, task: asyncio.Task) -> None:
        self._side_tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not isinstance(task.exception(), CLOSED):
            log.error("voice bridge side task failed: %r", task.exception())

    async def _finish(self, opening: asyncio.Task, reason: str) -> None:
        """Close both sides, then end the call (trace and personContext refresh). A failure is
        recorded before Twilio learns the stream ended: its next request asks whether to apologize."""
        for task in list(self._side_tasks):
            task.cancel()
        await asyncio.gather(*self._side_tasks, return_exceptions=True)
        if self.agent is not None:
            await self.agent.close()
        call = self.call or await _opened(opening)
        if call is not None and reason in FAILURES:
            await self.calls.mark_failed(call.interaction_id, reason)
        await self._close_twilio()
        if call is not None:
            await call.end()
            if self.returned:  # what the caller said after the failed transfer: their message to the team
                await keep_message(self.calls.spine, self.returned, call.transcript)

    async def _close_twilio(self) -> None:
        try:
            await self.twilio.close()
        except Exception as exc:  # noqa: BLE001 - already gone: nothing left to close
            log.debug("twilio close: %r", exc)


async def _opened(opening: asyncio.Task) -> LiveCall | None:
    try:
        return await opening
    except Exception as exc:  # noqa: BLE001 - an opening that failed leaves the caller to the apology path
        log.error("voice call could not be opened: %r", exc)
        return None
