"""One phone call with Clara, channel-neutral: who is calling, what the voice agent is told, the
tools it runs with the caller's authority, and the end of the call as the end of the interaction.

A call is one interaction, `voice-<CallSid>`. Opening it routes the caller (phone -> Person ->
roles -> personContext, as for SMS) and records the call's trace; that trace is the call's identity
for every later tool call, whichever replica or webhook it arrives on, so authority never comes
from the model's parameters. Ending it (the stream closing, or the post-call webhook, whichever
comes first; `Spine.mark_once` makes the two one) completes the trace and refreshes personContext.
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable
from datetime import datetime
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from actors.context_refresh import refresh_person_context
from actors.model.base import ModelBackend
from actors.turn_types import ToolRunner
from actors.voice_reads import OpenReads
from prompts.voice import (
    VoiceContextView, call_variables, default_voice_prompt, first_message,
    personalized_prompt, voice_applicable_features,
)
from spine.context import Channel, PersonContext, estimate_tokens
from spine.context_build import build_active_pointers
from spine.events import context_build, emit_event
from spine.identity import utcnow
from spine.records import (
    AgentTrace, EventKind, PromptSection, TraceEvent, TracePrefetch, TracePrompt, TraceRouting, TraceToolCall,
    last4,
)
from spine.repo import Spine
from spine.router import route_inbound
from spine.routing_types import L1Result, MetaRole
from spine.store import StoreError
from spine.toolspec import ToolInvocation, ToolResult
from tools.caller import Caller, load_caller

if TYPE_CHECKING:
    from actors.voice_session import VoiceCall

log = logging.getLogger("clara.voice")

OPEN_BUDGET_S = 1.0  # the caller hears ringing while we build context; never longer than this
# Bookkeeping of an opening (the call's trace, context-build events) is written just after the
# answer, so a burst of ringing phones is answered first; nothing reads it that soon but this
# replica, which waits for it (`_recorded`).
WRITE_BEHIND_S = 0.05
CALL_FAILED = "voice/call-failed"
Scalar = str | int | float | bool


def interaction_id_for(call_sid: str) -> str:
    """Deterministic, so a retried webhook or a second leg of the same call is the same interaction."""
    return f"voice-{call_sid}"


class VoiceCallStart(BaseModel):
    """What the voice agent is given at call start (the personalization payload's content)."""

    interaction_id: str
    person_id: str | None = None
    property_id: str | None = None
    dynamic_variables: dict[str, Scalar]
    prompt: str
    first_message: str
    degraded: bool = False
    suppressed: bool = False  # spam: the bridge does not put the agent on (as SMS does not reply)


class _Opened(BaseModel):
    start: VoiceCallStart
    context: PersonContext


def tool_use_id_for(name: str, parameters: dict[str, Any]) -> str:
    """Server-tool webhooks carry no call id; the same tool with the same input within one call is
    the same call (a retry), so side effects stay idempotent on (interaction_id, tool_use_id)."""
    digest = hashlib.sha256((name + json.dumps(parameters, sort_keys=True, default=str)).encode()).hexdigest()
    return f"wh-{digest[:16]}"


def not_on_the_phone(inv: ToolInvocation) -> ToolResult | None:
    """A tool outside the voice catalog never reached the voice agent's tool list; if a call for
    one slips through anyway it is refused here, before the DispatcherActor (defense in depth)."""
    if inv.name in voice_tool_names():
        return None
    return ToolResult(tool_use_id=inv.tool_use_id, name=inv.name, is_error=True, decision="refused",
                      reason=f"{inv.name} is not available on a phone call", rule="voice_catalog",
                      content="That can't be done on a phone call; I can have the team follow up by text.")


def as_trace_call(inv: ToolInvocation, result: ToolResult) -> TraceToolCall:
    return TraceToolCall(tool_use_id=inv.tool_use_id, name=inv.name, input=inv.input, decision=result.decision,
                         reason=result.reason, prefetched=result.prefetched, latency_ms=result.latency_ms,
                         is_error=result.is_error)


class VoiceCalls:
    """The voice calls of one process (a Serve replica, or a test): opens, runs tools for, and
    ends calls. A call's state is in the store (its trace) and, on a bridge, in its `VoiceCall`."""

    def __init__(self, spine: Spine, tools: ToolRunner, model: ModelBackend, *, voice_prompt: str | None = None,
                 open_budget_s: float = OPEN_BUDGET_S) -> None:
        self.spine, self.tools, self.model = spine, tools, model
        self.voice_prompt = voice_prompt if voice_prompt is not None else default_voice_prompt()
        self.open_budget_s = open_budget_s
        self._background: set[asyncio.Task] = set()
        self._recording: dict[str, asyncio.Task] = {}  # call traces being written by this replica

    # -- start ---------------------------------------------------------------------------------
    async def start(self, *, caller_number: str, called_number: str, call_sid: str) -> VoiceCallStart:
        return (await self._open_bounded(caller_number, called_number, call_sid)).start

    async def open(self, *, caller_number: str, called_number: str, call_sid: str) -> VoiceCall:
        """A live call for the media bridge (`start` is all a Twilio-native call needs)."""
        from actors.voice_session import VoiceCall

        opened = await self._open_bounded(caller_number, called_number, call_sid)
        return VoiceCall(self, opened.start, opened.context)

    async def _open_bounded(self, caller_number: str, called_number: str, call_sid: str) -> _Opened:
        """Within the budget, or minimal context and an event. The full open keeps running in the
        background so the call's trace (its identity for tools) still lands."""
        iid = interaction_id_for(call_sid)
        task = asyncio.create_task(self._open(caller_number, called_number, iid))
        try:
            return await asyncio.wait_for(asyncio.shield(task), self.open_budget_s)
        except Exception as exc:  # slow or failing store, or a bug: the ringing caller still gets Clara
            reason = "voice_context_timeout" if isinstance(exc, TimeoutError) else "voice_context_failed"
            if not isinstance(exc, (TimeoutError, StoreError)):
                log.exception("opening voice call %s failed", iid)
            self._keep(task)
            self._keep(asyncio.create_task(emit_event(
                self.spine, EventKind.STORE_DEGRADED, reason, channel=Channel.VOICE, address=caller_number,
                property_id=None, interaction_id=iid, detail={"budget_s": self.open_budget_s, "error": str(exc)[:200]})))
            return self._minimal(iid)

    def _later(self, write: Awaitable[Any]) -> None:
        async def behind() -> None:
            await asyncio.sleep(WRITE_BEHIND_S)
            await write

        self._keep(asyncio.create_task(behind()))

    def _keep(self, task: asyncio.Task) -> None:
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(_log_failure)

    def fallback_start(self, call_sid: str) -> VoiceCallStart:
        """Minimal context for an unknown caller: what a call gets when nothing else can be had."""
        return self._minimal(interaction_id_for(call_sid)).start

    def _minimal(self, iid: str) -> _Opened:
        view = VoiceContextView(l1=L1Result(roles=[MetaRole.OTHER]), context=PersonContext(person_id=""), degraded=True)
        start = VoiceCallStart(interaction_id=iid, dynamic_variables=call_variables(view, iid),
                               prompt=personalized_prompt(self.voice_prompt, view), first_message=first_message(view),
                               degraded=True)
        return _Opened(start=start, context=view.context)

    async def _open(self, caller_number: str, called_number: str, iid: str) -> _Opened:
        reads = OpenReads(self.spine)
        prop = await reads.property_for_number(_e164_or_raw(called_number))
        if prop is None:
            log.warning("voice call %s to an unknown number ...%s", iid, last4(called_number))
            return self._minimal(iid)
        decision = await route_inbound(reads, channel=Channel.VOICE, wire_address=caller_number,
                                       property_id=prop.id, message="", interaction_id=iid)
        pid = decision.person_id
        person, caller, (context, events) = await asyncio.gather(
            reads.get_person(pid) if pid else _none(), load_caller(reads, pid, prop.id, iid, Channel.VOICE),
            self._context(reads, pid, caller_number, prop.id, iid))
        if decision.graceful_degrade_reason:
            events.append(TraceEvent(kind=EventKind.GRACEFUL_DEGRADE, reason=decision.graceful_degrade_reason))
        view = VoiceContextView(
            caller_name=person.display_name if person else None, person_id=pid, known=bool(person and caller.roles),
            l1=decision.l1, features=_voice_features(decision.l1.roles), property_name=prop.name,
            units=await _units_of(reads, caller), context=context, tool_names=_voice_tools_for(caller))
        start = VoiceCallStart(
            interaction_id=iid, person_id=pid, property_id=prop.id, dynamic_variables=call_variables(view, iid),
            prompt=personalized_prompt(self.voice_prompt, view), first_message=first_message(view),
            suppressed=decision.reply_suppressed)
        self._record(AgentTrace(
            interaction_id=iid, channel=Channel.VOICE, participant_id=pid, property_id=prop.id,
            wire_address_last4=last4(caller_number), events=events, tools_offered=view.tool_names,
            routing=TraceRouting(roles=[r.value for r in decision.l1.roles], confidence=decision.l1.confidence,
                                 other_classification=decision.l1.other_classification,
                                 inferred_intent=decision.l1.inferred_intent),
            prompt=TracePrompt(sections=[
                PromptSection(layer="L0", name="voice_prompt", token_estimate=estimate_tokens(self.voice_prompt)),
                PromptSection(layer="context", name="voice_context",
                              token_estimate=estimate_tokens(start.prompt) - estimate_tokens(self.voice_prompt))])))
        return _Opened(start=start, context=context)

    def _record(self, trace: AgentTrace) -> None:
        """Write the call's trace after answering: the caller is not kept ringing for it. Until it
        lands, this replica's own readers of the call wait for it (`_recorded`)."""
        iid = trace.interaction_id
        task = asyncio.create_task(self._write_first(trace))
        self._recording[iid] = task
        task.add_done_callback(lambda t: self._recording.get(iid) is t and self._recording.pop(iid))
        self._keep(task)

    async def _write_first(self, trace: AgentTrace) -> None:
        await asyncio.sleep(WRITE_BEHIND_S)
        await self.spine.put_trace(trace)

    async def _recorded(self, interaction_id: str) -> None:
        task = self._recording.get(interaction_id)
        if task is not None:
            await asyncio.gather(asyncio.shield(task), return_exceptions=True)

    async def _context(self, reads: Spine, person_id: str | None, address: str, property_id: str,
                       iid: str) -> tuple[PersonContext, list[TraceEvent]]:
        """The eager tier, as the SMS turn loads it: the persisted snapshot (ghost pointers
        filtered), else pointers from the store with the fresh-contact summary."""
        from prompts.context_check import filter_ghost_pointers

        common = dict(channel=Channel.VOICE, address=address, property_id=property_id, interaction_id=iid)
        if person_id is None:
            self._later(context_build(self.spine, "personId_missing", **common))
            return PersonContext(person_id=""), [TraceEvent(kind=EventKind.CONTEXT_BUILD, reason="personId_missing")]
        stored = await reads.get_context(person_id)
        if stored is not None:
            return await filter_ghost_pointers(reads, stored, **common), []
        self._later(context_build(self.spine, "persisted_context_missing", **common))
        fresh = PersonContext(person_id=person_id, active=await build_active_pointers(reads, person_id))
        return fresh, [TraceEvent(kind=EventKind.CONTEXT_BUILD, reason="persisted_context_missing")]

    # -- during the call -----------------------------------------------------------------------
    async def caller_of(self, interaction_id: str) -> Caller | None:
        """The caller's authority, from the call's recorded trace (never from the request)."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        if trace is None or trace.channel != Channel.VOICE or not trace.property_id:
            return None
        return await load_caller(self.spine, trace.participant_id, trace.property_id, interaction_id, Channel.VOICE)

    async def run_webhook_tool(self, interaction_id: str, name: str, parameters: dict[str, Any]) -> ToolResult | None:
        """A server-tool webhook call; None when the call is unknown."""
        caller = await self.caller_of(interaction_id)
        if caller is None:
            return None
        inv = ToolInvocation(name=name, input=parameters, tool_use_id=tool_use_id_for(name, parameters))
        result = not_on_the_phone(inv) or await self.tools.run(inv, caller)
        trace = await self.spine.get_trace(interaction_id)
        if trace is not None and all(c.tool_use_id != inv.tool_use_id for c in trace.tool_calls):
            trace.tool_calls.append(as_trace_call(inv, result))
            await self.spine.put_trace(trace)
        return result

    # -- end -----------------------------------------------------------------------------------
    async def mark_failed(self, interaction_id: str, reason: str) -> None:
        """Record at once that the call broke (the voice webhook asks right after, to apologize)."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        if trace is not None:
            trace.events.append(TraceEvent(kind=CALL_FAILED, reason=reason))
            await self.spine.put_trace(trace)

    async def failed(self, interaction_id: str) -> bool:
        """Whether the caller was let down: the call broke, or never got as far as being recorded."""
        await self._recorded(interaction_id)
        trace = await self.spine.get_trace(interaction_id)
        return trace is None or any(e.kind == CALL_FAILED for e in trace.events)

    async def end_reported(self, interaction_id: str, transcript: list[dict[str, str]], *,
                           caller_number: str | None = None, called_number: str | None = None) -> bool:
        """The provider's report of a finished call (the post-call webhook). A call we never opened
        (personalization off, no bridge) is opened from the report first: its transcript is kept."""
        await self._recorded(interaction_id)
        if caller_number and called_number and await self.spine.get_trace(interaction_id) is None:
            await self._open(caller_number, called_number, interaction_id)  # nobody is waiting on it now
            await self._recorded(interaction_id)
        return await self.end(interaction_id, transcript)

    async def end(self, interaction_id: str, transcript: list[dict[str, str]], *, tool_calls: list[TraceToolCall] = (),
                  prefetch: list[dict] = (), events: list[TraceEvent] = ()) -> bool:
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
        said = trace.transcript or []
        trace.inbound = next((t["text"] for t in said if t.get("role") == "user"), trace.inbound)
        trace.reply = next((t["text"] for t in reversed(said) if t.get("role") == "agent"), trace.reply)
        trace.latency_ms.total = max(trace.latency_ms.total, _ms_since(trace.started_at))
        await self.spine.put_trace(trace)
        if not await self.spine.mark_once(f"voice-end#{interaction_id}"):
            return False
        if trace.participant_id:
            await refresh_person_context(self.spine, self.model, trace.participant_id, interaction_id, said)
        return True

    async def drain(self) -> None:
        """Wait for background work, including what background work starts (tests and shutdown)."""
        while self._background:
            await asyncio.gather(*self._background, return_exceptions=True)


def _voice_features(roles: list[MetaRole]) -> list[str]:
    from prompts.directory import features_for

    return voice_applicable_features(features_for(roles))


@cache
def voice_tool_names() -> frozenset[str]:
    from tools.catalog import voice_catalog

    return frozenset(t.name for t in voice_catalog())


def _voice_tools_for(caller: Caller) -> list[str]:
    """What this caller may run on the phone: their catalog, projected onto the voice catalog."""
    from tools.catalog import catalog_names

    return [name for name in catalog_names(caller) if name in voice_tool_names()]


async def _units_of(spine: Spine, caller: Caller) -> list[str]:
    unit_ids = sorted({r.scope.unit_id for r in caller.roles if r.scope.unit_id})
    units = await asyncio.gather(*(spine.get_unit(u) for u in unit_ids))
    return [u.number for u in units if u is not None and u.property_id == caller.property_id]


def _e164_or_raw(number: str) -> str:
    from spine.phone import InvalidPhoneNumber, normalize_phone

    try:
        return normalize_phone(number)
    except InvalidPhoneNumber:
        return number


def _ms_since(started: datetime) -> float:
    return max(0.0, (utcnow() - started).total_seconds() * 1000)


async def _none() -> None:
    return None


def _log_failure(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning("voice background task failed: %r", task.exception())

