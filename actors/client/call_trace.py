"""What a call's end adds to its trace: the transcript, the tool calls, prefetch and events the
bridge saw, what the tools queued; each end adds only what an earlier one did not have (the
stream closing and the post-call webhook both end a call)."""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from spine.identity import utcnow
from spine.notification import Notification
from spine.records import AgentTrace, TraceEvent, TracePrefetch, TraceToolCall, TranscriptEntry


def completed(trace: AgentTrace, transcript: list[TranscriptEntry], tool_calls: Sequence[TraceToolCall],
              prefetch: Sequence[dict[str, Any]], events: Sequence[TraceEvent],
              notifications: Sequence[Notification]) -> None:
    """What the call's end adds to its trace (only what an earlier end did not have)."""
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
    trace.latency_ms.total = max(trace.latency_ms.total, ms_since(trace.started_at))


def ms_since(started: datetime) -> float:
    return max(0.0, (utcnow() - started).total_seconds() * 1000)
