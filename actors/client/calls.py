"""The phone calls of one process with Clara, on the replica's side of the wire: a call answered
within a time bound and recorded, its tool calls and its end forwarded to the caller's actor.

A call is one interaction, `voice-<CallSid>`, and a session of the caller's actor
(actors.host.person_session): their PersonActor's when the number is a Person's claim, else the
number's address actor (as an unknown SMS sender's). The actor opens it (the one opening
pipeline, actors.turn.call_opening), runs its tools and ends it. What stays here: the open-time
budget (a caller never hears silence: past OPEN_BUDGET_S they get a minimal opening and a
STORE_DEGRADED event), writing the opening's bookkeeping just after the answer (the trace is the
call's identity for every later tool call, whichever replica or webhook it arrives on, so
authority never comes from the model's parameters), and the call's end: the trace completed
(`Spine.mark_once` makes the stream closing and the post-call webhook one end), then `CallEnd`.

When the caller's actor cannot be reached (the pool found no host within its submit budget):
the call still gets Clara, with the minimal opening and no trace, so its tools are refused as
"no call on record". A tool of a call on record still runs, through the DispatcherActor with the
authority the store gives the call's recorded participant (none for a caller who is no Person),
missing only the actor's order with the person's texts. Its end still completes the trace and
the person's conversation log, but makes no personContext refresh (that is the actor's; the
replica has no model).
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

from actors.client.call_bookkeeping import (
    WRITE_BEHIND_MAX_S,
    WRITE_BEHIND_S,
    WRITE_RETRY_S,
    Bookkeeping,
    logged,
    retried,
)
from actors.client.call_placement import call_open, whose_call
from actors.client.call_session import LiveCall
from actors.client.call_trace import completed
from actors.errors import ActorError
from actors.host.conversation_log import record_call
from actors.protocol.session import (
    CallEnd,
    CallOpen,
    CallTool,
    OpenedCall,
    PersonSessions,
    SessionReply,
    VoiceCallStart,
)
from actors.protocol.turn import ToolRunner
from actors.turn.call_opening import Opened, interaction_id_for, minimal_opening
from actors.turn.call_tools import not_on_the_phone, tool_use_id_for
from actors.turn.trace_builder import trace_call
from prompts.voice import default_voice_prompt
from spine import keys
from spine.context import Channel
from spine.events import context_build, emit_event
from spine.notification import Notification
from spine.records import AgentTrace, EventKind, TraceEvent, TraceToolCall, TranscriptEntry
from spine.repo import Spine
from spine.store import StoreError
from spine.toolspec import ToolInvocation, ToolResult
from spine.verification import CallCaller
from tools.caller import Caller, load_caller

__all__ = ["OPEN_BUDGET_S", "WRITE_BEHIND_MAX_S", "WRITE_BEHIND_S", "CallService"]

log = logging.getLogger("clara.voice")
# The channel's last step of a tool result; the trace lines it adds go in the list, written with
# the tool call's entry (gateway.voice.texts.CallTexts.deliver).
Deliver = Callable[[ToolResult, list[TraceEvent]], Awaitable[ToolResult]]

OPEN_BUDGET_S = 1.0  # the caller hears ringing while we build context; never longer than this
# A call's trace may be written by another replica's bookkeeping that the store refused a moment
# ago: its next try comes within MAX_PAUSE_S of the store's return, so a call not on record is
# read again for this long before its tool is refused (bench/chaos.py, the store down 10 s).
RECORD_WAIT_S = 3.0


class CallService:
    """The voice calls of one process (a Serve replica, or a test). A call's state is in the
    store (its trace), in the caller's actor and, on a bridge, in its `LiveCall`. `tools`: the
    DispatcherActor, for the bridge's speculative prefetch and the last resort above."""

    def __init__(self, spine: Spine, tools: ToolRunner, sessions: PersonSessions, *, voice_prompt: str | None = None,
                 open_budget_s: float = OPEN_BUDGET_S, write_retry_s: float = WRITE_RETRY_S,
                 record_wait_s: float = RECORD_WAIT_S) -> None:
        self.spine, self.tools, self.sessions = spine, tools, sessions
        self._custom_prompt = voice_prompt
        self.voice_prompt = voice_prompt if voice_prompt is not None else default_voice_prompt()
        self.open_budget_s, self.write_retry_s, self.record_wait_s = open_budget_s, write_retry_s, record_wait_s
        self._background: set[asyncio.Task[Any]] = set()
        self._opening: dict[str, asyncio.Task[Opened]] = {}  # calls being opened by this replica
        self._openings_in_progress = 0  # on this replica
        self._all_answered = asyncio.Event()  # set whenever no opening is in progress
        self._all_answered.set()
        self._writes = Bookkeeping(self._all_answered, self._run_in_background, write_retry_s)

    # -- start ---------------------------------------------------------------------------------
    async def start(self, *, caller_number: str, called_number: str, call_sid: str) -> VoiceCallStart:
        """An ElevenLabs-native call (the personalization webhook): no verdict reaches us, so it opens
        unverified."""
        return (await self._open_bounded(caller_number, called_number, call_sid)).start

    async def open(self, *, caller_number: str, called_number: str, call_sid: str,
                   verified: bool = False) -> LiveCall:
        """A live call for the media bridge (`start` is all a Twilio-native call needs); `verified`:
        Twilio's STIR/SHAKEN A verdict came with the call's signed stream parameters."""
        opened = await self._open_bounded(caller_number, called_number, call_sid, verified)
        return LiveCall(self, opened.start, opened.context)

    async def _open_bounded(self, caller_number: str, called_number: str, call_sid: str,
                            verified: bool = False) -> Opened:
        """Within the budget, or minimal context and an event. The full open keeps running in the
        background so the call's trace (its identity for tools) still lands."""
        iid = interaction_id_for(call_sid)
        task = self._opening[iid] = asyncio.create_task(self._open(caller_number, called_number, iid, verified))
        task.add_done_callback(lambda _: self._opening.pop(iid, None))
        self._openings_in_progress += 1
        self._all_answered.clear()
        task.add_done_callback(self._answered)
        try:
            await asyncio.wait((task,), timeout=self.open_budget_s)  # never cancels the open
            if not task.done():
                raise TimeoutError(f"no context within {self.open_budget_s} s")
            return task.result()
        except Exception as exc:  # slow or failing store or host, or a bug: the ringing caller still gets Clara
            reason = "voice_context_timeout" if isinstance(exc, TimeoutError) else "voice_context_failed"
            if not isinstance(exc, (TimeoutError, StoreError, ActorError)):
                log.exception("opening voice call %s failed", iid)
            self._run_in_background(task)
            self._run_in_background(asyncio.create_task(emit_event(
                self.spine, EventKind.STORE_DEGRADED, reason, channel=Channel.VOICE, address=caller_number,
                property_id=None, interaction_id=iid, detail={"budget_s": self.open_budget_s, "error": str(exc)[:200]})))
            return minimal_opening(self.voice_prompt, iid)

    def _answered(self, _: asyncio.Task[Any]) -> None:
        self._openings_in_progress -= 1
        if not self._openings_in_progress:
            self._all_answered.set()

    def _run_in_background(self, task: asyncio.Task[Any]) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    def fallback_start(self, call_sid: str) -> VoiceCallStart:
        """Minimal context for an unknown caller: what a call gets when nothing else can be had."""
        return minimal_opening(self.voice_prompt, interaction_id_for(call_sid)).start

    async def _open(self, caller_number: str, called_number: str, iid: str, verified: bool = False) -> Opened:
        """The opening from the caller's actor (a failure to reach it raises: `_open_bounded`
        answers), its bookkeeping queued to write once answered."""
        op = await call_open(self.spine, caller_number, called_number, iid, verified=verified,
                             voice_prompt=self._custom_prompt)
        opened = (await self._opened_by_actor(op)).opened if op is not None else None
        if opened is None:  # a number no property answers to (or that went away meanwhile)
            return minimal_opening(self.voice_prompt, iid)
        self._record(opened, caller_number, iid)
        trace = opened.trace
        return Opened(start=opened.start, context=opened.context, trace=lambda: trace,
                      context_builds=opened.context_builds)

    async def _opened_by_actor(self, op: CallOpen) -> SessionReply:
        """The actor's opening; one that failed on the store (a lease it could not write) or on
        its host is asked again, backing off, for up to `write_retry_s`: the caller was answered
        meanwhile, but the call's trace, the identity its tools need, still lands (bench/chaos.py)."""
        return await retried(lambda: self.sessions.session(op), self.write_retry_s, (StoreError, ActorError))

    def _record(self, opened: OpenedCall, caller_number: str, iid: str) -> None:
        for reason in opened.context_builds:
            self._writes.write(partial(context_build, self.spine, reason, channel=Channel.VOICE, address=caller_number,
                                       property_id=opened.start.property_id, interaction_id=iid))
        trace = opened.trace
        self._writes.write(lambda: self.spine.put_trace(trace), recording=iid)
        if trace.participant_id is None:  # the call's later ops go to the number's address actor
            caller = CallCaller(interaction_id=iid, address=caller_number)
            self._writes.write(lambda: self.spine.put_call_caller(caller), recording=iid)

    async def _recorded(self, interaction_id: str) -> None:
        """The call's opening on this replica done and its trace written. An opening still in
        progress (the caller was answered past the budget; a host being replaced) is waited for."""
        opening = self._opening.get(interaction_id)
        if opening is not None:
            await asyncio.gather(asyncio.shield(opening), return_exceptions=True)
        await self._writes.recorded(interaction_id)

    async def call_trace(self, interaction_id: str) -> AgentTrace | None:
        """The call's trace once this replica's part of it is written; one not on record yet is
        read again for `record_wait_s` (RECORD_WAIT_S: another replica may still be writing it)."""
        await self._recorded(interaction_id)

        async def read() -> AgentTrace:
            trace = await self.spine.get_trace(interaction_id)
            if trace is None:
                raise _NotOnRecord(interaction_id)
            return trace

        try:
            return await retried(read, self.record_wait_s, (_NotOnRecord,))
        except _NotOnRecord:
            return None

    # -- during the call -----------------------------------------------------------------------
    async def caller_of(self, interaction_id: str) -> Caller | None:
        """The caller's authority, from the call's recorded trace (never from the request)."""
        trace = await self.call_trace(interaction_id)
        if trace is None or trace.channel != Channel.VOICE or not trace.property_id:
            return None
        return await load_caller(self.spine, trace.participant_id, trace.property_id, interaction_id, Channel.VOICE)

    async def run_tool(self, interaction_id: str, inv: ToolInvocation) -> ToolResult | None:
        """One of the call's tools, with the caller's authority: in their actor, in order with
        their texts; None when the call is unknown. The actor unreachable: see the module's doc."""
        trace = await self.call_trace(interaction_id)
        if trace is None or trace.channel != Channel.VOICE or not trace.property_id:
            return None
        where = await whose_call(self.spine, trace)
        if where is not None:
            try:
                result = (await self.sessions.session(CallTool(**where, invocation=inv))).result
                if result is not None:
                    return result
            except Exception as exc:  # noqa: BLE001 - the host is gone: still the caller's authority, from the store
                log.warning("voice tool %s for %s ran outside the caller's actor: %r", inv.name, interaction_id, exc)
        caller = await load_caller(self.spine, trace.participant_id, trace.property_id, interaction_id, Channel.VOICE)
        return not_on_the_phone(inv) or await self.tools.run(inv, caller)

    async def run_webhook_tool(self, interaction_id: str, name: str, parameters: dict[str, Any], *,
                               tool_call_id: str | None = None, agent_turn: int | None = None,
                               deliver: Deliver | None = None) -> ToolResult | None:
        """A server-tool webhook call (its tool use: actors.turn.call_tools); None when the call is
        unknown. `deliver`: what the channel does with the result (send its texts, move the call)
        before the trace entry is written, so a transfer's redirect does not wait on the trace; the
        entry records the tool's own result either way, as the media bridge's does, and the lines
        the channel added, in the same write."""
        tool_use_id = tool_use_id_for(name, parameters, tool_call_id=tool_call_id, agent_turn=agent_turn)
        inv = ToolInvocation(name=name, input=parameters, tool_use_id=tool_use_id)
        result = await self.run_tool(interaction_id, inv)
        if result is None:
            return None
        lines: list[TraceEvent] = []
        try:
            return await deliver(result, lines) if deliver is not None else result
        finally:
            await self._trace_tool_call(interaction_id, inv, result, lines)

    async def _trace_tool_call(self, interaction_id: str, inv: ToolInvocation, result: ToolResult,
                               lines: list[TraceEvent]) -> None:
        def add(trace: AgentTrace) -> bool:
            first = all(c.tool_use_id != inv.tool_use_id for c in trace.tool_calls)  # not a retried webhook
            if first:
                trace.tool_calls.append(trace_call(inv, result))
                trace.notifications += result.notifications
            trace.events += lines
            return first or bool(lines)

        await self.spine.change_trace(interaction_id, add)

    # -- end -----------------------------------------------------------------------------------
    async def mark_failed(self, interaction_id: str, reason: str) -> None:
        """Record at once that the call broke (the voice webhook asks right after, to apologize)."""
        await self._recorded(interaction_id)

        def broke(trace: AgentTrace) -> bool:
            trace.events.append(TraceEvent(kind=EventKind.CALL_FAILED, reason=reason))
            return True

        await self.spine.change_trace(interaction_id, broke)

    async def failed(self, interaction_id: str) -> bool:
        """Whether the caller was let down: the call broke, or never got as far as being recorded."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        return trace is None or any(e.kind == EventKind.CALL_FAILED for e in trace.events)

    async def end_reported(self, interaction_id: str, transcript: list[TranscriptEntry], *,
                           caller_number: str | None = None, called_number: str | None = None) -> bool:
        """The provider's report of a finished call (the post-call webhook). A call we never opened
        (personalization off, no bridge) is opened from the report first: its transcript is kept."""
        await self._recorded(interaction_id)
        if caller_number and called_number and await self.spine.get_trace(interaction_id) is None:
            try:
                await self._open(caller_number, called_number, interaction_id)  # nobody is waiting on it now
            except Exception as exc:  # noqa: BLE001 - the caller's actor is unreachable: the report has no call to end
                log.warning("voice call %s reported ended could not be opened: %r", interaction_id, exc)
            await self._recorded(interaction_id)
        return await self.end(interaction_id, transcript)

    async def end(self, interaction_id: str, transcript: list[TranscriptEntry], *,
                  tool_calls: Sequence[TraceToolCall] = (), prefetch: Sequence[dict[str, Any]] = (),
                  events: Sequence[TraceEvent] = (), notifications: Sequence[Notification] = ()) -> bool:
        """Complete the call's trace and end the interaction in the caller's actor. True for the
        first end of the call; the second (stream end and post-call webhook) only adds what the
        first did not have."""
        await self._recorded(interaction_id)

        def complete(found: AgentTrace) -> bool:
            completed(found, transcript, tool_calls, prefetch, events, notifications)
            return True

        trace = await self.spine.change_trace(interaction_id, complete)
        if trace is None:
            log.warning("end of unknown voice call %s", interaction_id)
            return False
        if not await self.spine.mark_once(keys.voice_end_marker(interaction_id)):
            return False
        said = trace.transcript or []
        person_id = await self._end_interaction(trace, said)
        if person_id:
            mine = trace.model_copy(update={"participant_id": person_id})
            await logged(lambda: record_call(self.spine, mine, said), self.write_retry_s)
        return True

    async def _end_interaction(self, trace: AgentTrace, said: list[TranscriptEntry]) -> str | None:
        """The call's end ends the caller's interaction in their actor: one refresh, over their
        texts during the call too. Whose interaction it was: the call's participant, or the
        Person its number became during the call (the address actor moved it on)."""
        where = await whose_call(self.spine, trace)
        if where is None:
            return trace.participant_id
        try:
            reply = await self.sessions.session(CallEnd(**where, transcript=said))
        except Exception as exc:  # noqa: BLE001 - the host is gone: no refresh for this call (module doc)
            log.warning("end of %s outside the caller's actor, personContext not refreshed: %r",
                        trace.interaction_id, exc)
            return trace.participant_id
        return reply.person_id or trace.participant_id

    async def drain(self) -> None:
        """Wait for background work, including what background work starts (tests and shutdown)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("voice background task failed: %r", task.exception())


class _NotOnRecord(ActorError):
    """A call's trace not (yet) in the store (never leaves CallService)."""
