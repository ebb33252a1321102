"""The phone calls of one process with Clara, channel-neutral: a call opened within a time
bound and recorded, the tools it runs with the caller's authority, and its end as the end of the
interaction.

A call is one interaction, `voice-<CallSid>`. Opening it (`actors.voice.opening`) routes the caller
and shapes the call's trace; the trace is recorded just after answering, and is the call's identity
for every later tool call, whichever replica or webhook it arrives on, so authority never comes
from the model's parameters. Ending it (the stream closing, or the post-call webhook, whichever
comes first; `Spine.mark_once` makes the two one) completes the trace and refreshes personContext.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from actors.client.placement import claimed_person
from actors.host.context_refresh import refresh_person_context
from actors.host.conversation_log import record_call
from actors.host.person_session import CallEnd, CallOpen, CallTool, PersonSessions
from actors.model.base import ModelBackend
from actors.turn.trace_builder import trace_call
from actors.turn.turn_types import ToolRunner
from actors.voice.opening import (
    Opened,
    VoiceCallStart,
    e164_or_raw,
    interaction_id_for,
    minimal_opening,
    open_call,
)
from actors.voice.session import VoiceCall
from actors.voice.tools import not_on_the_phone, tool_use_id_for
from prompts.voice import default_voice_prompt
from spine import keys
from spine.context import Channel
from spine.events import context_build, emit_event
from spine.identity import utcnow
from spine.notification import Notification
from spine.records import EventKind, TraceEvent, TracePrefetch, TraceToolCall, TranscriptEntry
from spine.repo import Spine
from spine.store import StoreError, StoreUnavailable
from spine.toolspec import ToolInvocation, ToolResult
from tools.caller import Caller, load_caller

log = logging.getLogger("clara.voice")

OPEN_BUDGET_S = 1.0  # the caller hears ringing while we build context; never longer than this
# Bookkeeping of an opening (the call's trace, context-build events) is written just after the
# answer, and while other phones are still ringing on this replica it waits for them (up to
# WRITE_BEHIND_MAX_S), so a burst of calls is answered first; nothing reads it that soon but this
# replica, which waits for it (`_recorded`).
WRITE_BEHIND_S = 0.05
WRITE_BEHIND_MAX_S = 0.5
# A store that refuses the bookkeeping for a moment (locked, unreachable) is waited out this long:
# a call whose trace never landed has every later tool refused as "no call on record"
# (bench/chaos.py, the store refusing writes for 10 s).
WRITE_RETRY_S = 20.0


class VoiceCalls:
    """The voice calls of one process (a Serve replica, or a test): opens, runs tools for, and
    ends calls. A call's state is in the store (its trace) and, on a bridge, in its `VoiceCall`."""

    def __init__(self, spine: Spine, tools: ToolRunner, model: ModelBackend, *, voice_prompt: str | None = None,
                 open_budget_s: float = OPEN_BUDGET_S, sessions: PersonSessions | None = None,
                 write_retry_s: float = WRITE_RETRY_S) -> None:
        """`sessions`: the actor pool. With it, a known caller's call is a session of their
        PersonActor (actors.host.person_session): opened from its Opening, its tools run in its mailbox,
        its end is the end of their interaction. Without it (tests), all of that runs here."""
        self.spine, self.tools, self.model, self.sessions = spine, tools, model, sessions
        self._custom_prompt = voice_prompt
        self.voice_prompt = voice_prompt if voice_prompt is not None else default_voice_prompt()
        self.open_budget_s, self.write_retry_s = open_budget_s, write_retry_s
        self._background: set[asyncio.Task[Any]] = set()
        self._recording: dict[str, asyncio.Task[None]] = {}  # call traces being written by this replica
        self._batch: list[Callable[[], Awaitable[Any]]] | None = None  # bookkeeping queued to write
        self._batch_task: asyncio.Task[None] | None = None
        self._openings_in_progress = 0  # on this replica
        self._all_answered = asyncio.Event()  # set whenever no opening is in progress
        self._all_answered.set()

    # -- start ---------------------------------------------------------------------------------
    async def start(self, *, caller_number: str, called_number: str, call_sid: str) -> VoiceCallStart:
        """An ElevenLabs-native call (the personalization webhook): no verdict reaches us, so it opens
        unverified."""
        return (await self._open_bounded(caller_number, called_number, call_sid)).start

    async def open(self, *, caller_number: str, called_number: str, call_sid: str,
                   verified: bool = False) -> VoiceCall:
        """A live call for the media bridge (`start` is all a Twilio-native call needs); `verified`:
        Twilio's STIR/SHAKEN A verdict came with the call's signed stream parameters."""
        opened = await self._open_bounded(caller_number, called_number, call_sid, verified)
        return VoiceCall(self, opened.start, opened.context)

    async def _open_bounded(self, caller_number: str, called_number: str, call_sid: str,
                            verified: bool = False) -> Opened:
        """Within the budget, or minimal context and an event. The full open keeps running in the
        background so the call's trace (its identity for tools) still lands."""
        iid = interaction_id_for(call_sid)
        task = asyncio.create_task(self._open(caller_number, called_number, iid, verified))
        self._openings_in_progress += 1
        self._all_answered.clear()
        task.add_done_callback(self._answered)
        try:
            await asyncio.wait((task,), timeout=self.open_budget_s)  # never cancels the open
            if not task.done():
                raise TimeoutError(f"no context within {self.open_budget_s} s")
            return task.result()
        except Exception as exc:  # slow or failing store, or a bug: the ringing caller still gets Clara
            reason = "voice_context_timeout" if isinstance(exc, TimeoutError) else "voice_context_failed"
            if not isinstance(exc, (TimeoutError, StoreError)):
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

    def _write_after_answer(self, write: Callable[[], Awaitable[Any]], *, recording: str | None = None) -> None:
        """Write an opening's bookkeeping just after answering. Everything queued within
        WRITE_BEHIND_S is written by one task: a burst of ringing phones costs one timer and one
        task, not one of each per write. With `recording`, the call's own readers on this
        replica wait for the batch (`_recorded`)."""
        if self._batch is None or self._batch_task is None:
            self._batch = []
            self._batch_task = asyncio.create_task(self._write_behind(self._batch))
            self._run_in_background(self._batch_task)
        self._batch.append(write)
        if recording and self._batch_task is not None:
            self._recording[recording] = self._batch_task

    async def _write_behind(self, batch: list[Callable[[], Awaitable[Any]]]) -> None:
        await asyncio.sleep(WRITE_BEHIND_S)
        self._batch = None
        try:
            await asyncio.wait_for(self._all_answered.wait(), WRITE_BEHIND_MAX_S - WRITE_BEHIND_S)
        except TimeoutError:
            pass  # phones keep ringing: write anyway, the call's tools need its trace
        try:
            await asyncio.gather(*(_logged(write, self.write_retry_s) for write in batch))
        finally:
            me = asyncio.current_task()
            for iid in [i for i, task in self._recording.items() if task is me]:
                del self._recording[iid]

    def _run_in_background(self, task: asyncio.Task[Any]) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    def fallback_start(self, call_sid: str) -> VoiceCallStart:
        """Minimal context for an unknown caller: what a call gets when nothing else can be had."""
        return minimal_opening(self.voice_prompt, interaction_id_for(call_sid)).start

    async def _open(self, caller_number: str, called_number: str, iid: str, verified: bool = False) -> Opened:
        try:
            opened = await self._open_in_actor(caller_number, called_number, iid, verified)
        except Exception as exc:  # noqa: BLE001 - the person's host is gone: open here, the caller still gets Clara
            log.warning("voice call %s opened outside the PersonActor: %r", iid, exc)
            opened = None
        if opened is None:
            opened = await open_call(self.spine, self.voice_prompt, caller_number, called_number, iid,
                                     verified=verified)
        for reason in opened.context_builds:
            self._write_after_answer(partial(context_build, self.spine, reason, channel=Channel.VOICE,
                                             address=caller_number, property_id=opened.start.property_id,
                                             interaction_id=iid))
        if opened.trace is not None:
            trace = opened.trace
            self._write_after_answer(lambda: self.spine.put_trace(trace()), recording=iid)
        return opened

    async def _open_in_actor(self, caller_number: str, called_number: str, iid: str,
                             verified: bool) -> Opened | None:
        """The opening from the caller's PersonActor; None for a caller who is no Person (or
        without the pool), whose call is opened here."""
        if self.sessions is None:
            return None
        prop = await self.spine.property_for_number(e164_or_raw(called_number))
        person_id = await claimed_person(self.spine, Channel.VOICE, caller_number) if prop else None
        if prop is None or person_id is None:
            return None
        op = CallOpen(person_id=person_id, property_id=prop.id, interaction_id=iid, caller_number=caller_number,
                      voice_prompt=self._custom_prompt, verified=verified)
        opened = (await self.sessions.session(op)).opened
        assert opened is not None
        trace = opened.trace
        return Opened(start=opened.start, context=opened.context, trace=lambda: trace,
                      context_builds=opened.context_builds)

    async def _recorded(self, interaction_id: str) -> None:
        task = self._recording.get(interaction_id)
        if task is not None:
            await asyncio.gather(asyncio.shield(task), return_exceptions=True)

    # -- during the call -----------------------------------------------------------------------
    async def caller_of(self, interaction_id: str) -> Caller | None:
        """The caller's authority, from the call's recorded trace (never from the request)."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        if trace is None or trace.channel != Channel.VOICE or not trace.property_id:
            return None
        return await load_caller(self.spine, trace.participant_id, trace.property_id, interaction_id, Channel.VOICE)

    async def run_tool(self, interaction_id: str, inv: ToolInvocation) -> ToolResult | None:
        """One of the call's tools, with the caller's authority: in their PersonActor, in order
        with their texts, when the call is theirs; None when the call is unknown."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        if trace is None or trace.channel != Channel.VOICE or not trace.property_id:
            return None
        if self.sessions is not None and trace.participant_id:
            op = CallTool(person_id=trace.participant_id, property_id=trace.property_id,
                          interaction_id=interaction_id, invocation=inv)
            try:
                return (await self.sessions.session(op)).result
            except Exception as exc:  # noqa: BLE001 - the host is gone: still the caller's authority, from the store
                log.warning("voice tool %s for %s ran outside the PersonActor: %r", inv.name, interaction_id, exc)
        caller = await load_caller(self.spine, trace.participant_id, trace.property_id, interaction_id, Channel.VOICE)
        return not_on_the_phone(inv) or await self.tools.run(inv, caller)

    async def run_webhook_tool(self, interaction_id: str, name: str, parameters: dict[str, Any], *,
                               tool_call_id: str | None = None, agent_turn: int | None = None) -> ToolResult | None:
        """A server-tool webhook call (its tool use: actors.voice.tools); None when the call is unknown."""
        tool_use_id = tool_use_id_for(name, parameters, tool_call_id=tool_call_id, agent_turn=agent_turn)
        inv = ToolInvocation(name=name, input=parameters, tool_use_id=tool_use_id)
        result = await self.run_tool(interaction_id, inv)
        if result is None:
            return None
        trace = await self.spine.get_trace(interaction_id)
        if trace is not None and all(c.tool_use_id != inv.tool_use_id for c in trace.tool_calls):
            trace.tool_calls.append(trace_call(inv, result))
            trace.notifications += result.notifications
            await self.spine.put_trace(trace)
        return result

    # -- end -----------------------------------------------------------------------------------
    async def mark_failed(self, interaction_id: str, reason: str) -> None:
        """Record at once that the call broke (the voice webhook asks right after, to apologize)."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        if trace is not None:
            trace.events.append(TraceEvent(kind=EventKind.CALL_FAILED, reason=reason))
            await self.spine.put_trace(trace)

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
            await self._open(caller_number, called_number, interaction_id)  # nobody is waiting on it now
            await self._recorded(interaction_id)
        return await self.end(interaction_id, transcript)

    async def end(self, interaction_id: str, transcript: list[TranscriptEntry], *,
                  tool_calls: Sequence[TraceToolCall] = (), prefetch: Sequence[dict[str, Any]] = (),
                  events: Sequence[TraceEvent] = (), notifications: Sequence[Notification] = ()) -> bool:
        """Complete the call's trace and refresh personContext. True for the first end of the call;
        the second (stream end and post-call webhook) only adds what the first did not have."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        if trace is None:
            log.warning("end of unknown voice call %s", interaction_id)
            return False
        if len(transcript) > len(trace.transcript or []):
            trace.transcript = list(transcript)
        known = {c.tool_use_id for c in trace.tool_calls}
        trace.tool_calls += [c for c in tool_calls if c.tool_use_id not in known]
        trace.prefetch = trace.prefetch or [TracePrefetch(**p) for p in prefetch]
        trace.events += [e for e in events if e not in trace.events]
        queued = {n.outbox_id for n in trace.notifications}
        trace.notifications += [n for n in notifications if n.outbox_id not in queued]
        said = trace.transcript or []
        trace.inbound = next((t.text for t in said if t.role == "user"), trace.inbound)
        trace.reply = next((t.text for t in reversed(said) if t.role == "agent"), trace.reply)
        trace.latency_ms.total = max(trace.latency_ms.total, _ms_since(trace.started_at))
        await self.spine.put_trace(trace)
        if not await self.spine.mark_once(keys.voice_end_marker(interaction_id)):
            return False
        if trace.participant_id:
            await _logged(lambda: record_call(self.spine, trace, said), self.write_retry_s)
            await self._end_interaction(trace.participant_id, trace.property_id or "", interaction_id, said)
        return True

    async def _end_interaction(self, person_id: str, property_id: str, interaction_id: str,
                               said: list[TranscriptEntry]) -> None:
        """The call's end ends the person's interaction: one refresh, by their PersonActor when
        the call was its session (so their texts during the call are in it too)."""
        if self.sessions is not None:
            op = CallEnd(person_id=person_id, property_id=property_id, interaction_id=interaction_id, transcript=said)
            try:
                await self.sessions.session(op)
                return
            except Exception as exc:  # noqa: BLE001 - the host is gone: refresh from here, it is idempotent
                log.warning("end of %s outside the PersonActor: %r", interaction_id, exc)
        await refresh_person_context(self.spine, self.model, person_id, interaction_id, said)

    async def drain(self) -> None:
        """Wait for background work, including what background work starts (tests and shutdown)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)


def _ms_since(started: datetime) -> float:
    return max(0.0, (utcnow() - started).total_seconds() * 1000)


async def _logged(write: Callable[[], Awaitable[Any]], retry_s: float) -> None:
    """One bookkeeping write; while the store is unavailable, tried again (backing off) for `retry_s`."""
    deadline, pause = time.monotonic() + retry_s, 0.25
    while True:
        try:
            await write()
            return
        except StoreUnavailable as exc:
            if time.monotonic() + pause > deadline:
                log.warning("voice bookkeeping write failed: %r", exc)
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, 2.0)
        except Exception as exc:  # noqa: BLE001 - bookkeeping of one call; the others in its batch still land
            log.warning("voice bookkeeping write failed: %r", exc)
            return


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("voice background task failed: %r", task.exception())

