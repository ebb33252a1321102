"""A live call on the media bridge: tools run with the caller's authority, the transcript as
heard, speculative prefetch, and the end of the call (the end of the interaction)."""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Sequence
from typing import Any, Protocol

from actors.protocol.session import VoiceCallStart
from actors.protocol.turn import ToolRunner
from actors.turn.call_tools import not_on_the_phone
from actors.turn.trace_builder import trace_call
from spine.context import PersonContext
from spine.notification import Notification
from spine.records import TraceEvent, TraceToolCall, TranscriptEntry
from spine.toolspec import ToolInvocation, ToolResult
from tools.caller import Caller

log = logging.getLogger("clara.voice")


class CallService(Protocol):
    """What a live call asks of the process's calls (actors.client.calls.CallService)."""

    @property
    def tools(self) -> ToolRunner: ...

    async def caller_of(self, interaction_id: str) -> Caller | None: ...

    async def run_tool(self, interaction_id: str, inv: ToolInvocation) -> ToolResult | None: ...

    async def end(self, interaction_id: str, transcript: list[TranscriptEntry], *,
                  tool_calls: Sequence[TraceToolCall] = ..., prefetch: Sequence[dict[str, Any]] = ...,
                  events: Sequence[TraceEvent] = ..., notifications: Sequence[Notification] = ...) -> bool: ...


class LiveCall:
    """A live call on the bridge: tools with the caller's authority, the transcript as heard,
    speculative prefetch, and the end."""

    def __init__(self, calls: CallService, start: VoiceCallStart, context: PersonContext) -> None:
        self.calls, self.start, self.context = calls, start, context
        self.interaction_id = start.interaction_id
        self.transcript: list[TranscriptEntry] = []
        self.tool_calls: list[TraceToolCall] = []
        self.notifications: list[Notification] = []  # what the call's tools queued (the trace's)
        self.events: list[TraceEvent] = []
        self.conversation_id: str | None = None
        self._prefetched: set[str] = set()
        self._ended = False

    def heard_user(self, text: str) -> None:
        if text.strip():
            self.transcript.append(TranscriptEntry(role="user", text=text.strip()))

    def heard_agent(self, text: str) -> None:
        if text.strip():
            self.transcript.append(TranscriptEntry(role="agent", text=text.strip()))

    def corrected_agent(self, original: str, corrected: str) -> None:
        for turn in reversed(self.transcript):
            if turn.role == "agent" and turn.text == original.strip():
                turn.text = corrected.strip()
                return

    def note(self, kind: str, reason: str) -> None:
        self.events.append(TraceEvent(kind=kind, reason=reason))

    async def run_tool(self, name: str, parameters: dict[str, Any], tool_call_id: str) -> ToolResult:
        """Through the ToolRunner (the DispatcherActor in Ray) with authority re-derived from the
        store: an unknown caller still goes through the gate, which refuses what they may not do."""
        inv = ToolInvocation(name=name, input=parameters, tool_use_id=tool_call_id)
        result = not_on_the_phone(inv) or await self.calls.run_tool(self.interaction_id, inv)
        if result is None:
            result = ToolResult(tool_use_id=tool_call_id, name=name, is_error=True, decision="refused",
                                reason="this call could not be identified", content="I can't do that on this call.")
        self.tool_calls.append(trace_call(inv, result))
        self.notifications += result.notifications
        return result

    async def prefetch(self, heard: str) -> list[ToolResult]:
        """Speculative read-only lookups suggested by what the caller said, each once per call,
        under the same gate. Returns what landed successfully."""
        from tools.prefetch import prefetch_candidates

        caller = await self.calls.caller_of(self.interaction_id)
        if caller is None:
            return []
        fresh = []
        for inv in prefetch_candidates(heard, self.context, caller):
            key = inv.name + json.dumps(inv.input, sort_keys=True)
            if key not in self._prefetched:
                self._prefetched.add(key)
                fresh.append(inv.model_copy(update={"tool_use_id": f"prefetch-{len(self._prefetched)}"}))
        if not fresh:
            return []
        await self.calls.tools.prefetch(fresh, caller)
        results = await asyncio.gather(*(self.calls.tools.run(inv, caller) for inv in fresh))
        return [r for r in results if not r.is_error]

    async def end(self) -> bool:
        if self._ended:
            return False
        self._ended = True
        try:
            report = await self.calls.tools.prefetch_report(self.interaction_id)
        except Exception as exc:  # noqa: BLE001 - the report is nice to have; the end of the call is not optional
            log.warning("prefetch report for %s failed: %s", self.interaction_id, exc)
            report = []
        return await self.calls.end(self.interaction_id, self.transcript, tool_calls=self.tool_calls,
                                    prefetch=report, events=self.events, notifications=self.notifications)
