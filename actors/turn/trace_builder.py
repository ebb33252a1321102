"""The AgentTrace of one interaction, from what the turn did."""
from __future__ import annotations

import time
from typing import Any

from actors.protocol.turn import LoopOutcome
from prompts.assemble import AssembledPrompt
from spine.envelope import MessageEnvelope
from spine.records import (
    AgentTrace,
    TraceEvent,
    TraceLatency,
    TracePrefetch,
    TracePrompt,
    TraceRouting,
    TraceToolCall,
    last4,
)
from spine.routing_types import L1Result, RoutingDecision
from spine.store.counting import split_round_trips
from spine.toolspec import ToolInvocation, ToolResult
from tools.handlers.step_up import redact_input


def trace_call(inv: ToolInvocation, result: ToolResult) -> TraceToolCall:
    """The trace's record of one tool call (its input redacted as step_up says), on every channel."""
    return TraceToolCall(
        tool_use_id=inv.tool_use_id, name=inv.name, input=redact_input(inv.name, inv.input), decision=result.decision,
        reason=result.reason, prefetched=result.prefetched, latency_ms=result.latency_ms, is_error=result.is_error,
    )


def trace_routing(l1: L1Result) -> TraceRouting:
    """The trace's record of how the router saw the caller, on every channel."""
    return TraceRouting(roles=[r.value for r in l1.roles], confidence=l1.confidence,
                        other_classification=l1.other_classification, inferred_intent=l1.inferred_intent)


def build_trace(env: MessageEnvelope, decision: RoutingDecision, prompt: AssembledPrompt | None, out: LoopOutcome,
                started: float, *, events: list[TraceEvent], prefetch: list[dict[str, Any]] | None = None,
                cost: float = 0.0,
                store_reads: dict[str, int] | None = None) -> AgentTrace:
    l1 = decision.l1
    reads, round_trips = split_round_trips(store_reads or {})
    return AgentTrace(
        interaction_id=env.interaction_id, channel=env.channel, origin=env.origin,
        impersonated_by=env.impersonated_by, participant_id=decision.person_id, property_id=env.property_id,
        wire_address_last4=last4(env.from_address),
        routing=trace_routing(l1),
        prompt=TracePrompt(sections=prompt.sections, breakpoint_index=prompt.breakpoint_index) if prompt else TracePrompt(),
        tools_offered=[t["name"] for t in prompt.tools] if prompt else [],
        tool_calls=out.tool_calls,
        prefetch=[TracePrefetch(**p) for p in prefetch or []],
        inbound=env.body, reply=out.reply, model=out.model, usage=out.usage, cost_usd=cost,
        latency_ms=TraceLatency(total=(time.monotonic() - started) * 1000, model=out.model_ms, tools=out.tools_ms),
        events=events, started_at=env.received_at, store_reads=reads,
        dispatcher_round_trips=round_trips, notifications=out.notifications,
    )
