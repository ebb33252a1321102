"""The trace of an SMS keyword answered without an agent turn (`ACK`, `YES` / `NO`): the AgentTrace
a turn leaves (actors.trace_builder.build_trace, the one builder), with no prompt, no model and no
tool calls, the reply, and in `notifications` what the keyword queued for other people (the
reporter told who has the page, staff told of a declined dispatch). /admin/traces shows it as it
shows any turn."""
from __future__ import annotations

import time

from pydantic import BaseModel, Field

from actors.protocol.turn import LoopOutcome
from actors.turn.trace_builder import build_trace
from spine.envelope import MessageEnvelope
from spine.notification import Notification
from spine.records import AgentTrace, InboundMessage, TraceEvent
from spine.repo import Spine
from spine.router import person_role_types_to_meta_roles
from spine.routing_types import L1Result, RoutingDecision


class KeywordAnswer(BaseModel):
    """What a keyword did: who sent it (the Person it resolved to), what they are told, what it
    queued for others and the trace's events (oncall/acknowledged, dispatch/accepted, ...)."""

    person_id: str
    property_id: str | None = None  # of the page or work order it answered
    reply: str
    notifications: list[Notification] = Field(default_factory=list)
    events: list[TraceEvent] = Field(default_factory=list)
    started: float = Field(default_factory=time.monotonic)


async def write_keyword_trace(spine: Spine, record: InboundMessage, answer: KeywordAnswer, *, sent: str,
                              property_id: str | None) -> AgentTrace:
    """`sent`: the reply as it was sent ('' when the sender is opted out); `property_id`: the
    property the text was sent to (else the one the answer concerns)."""
    assert record.interaction_id is not None  # every accepted inbound reserves one
    where = property_id or answer.property_id or ""
    env = MessageEnvelope(message_id=record.id, interaction_id=record.interaction_id, channel=record.channel,
                          from_address=record.from_address, to_address=record.to_address, body=record.body,
                          property_id=where, participant_id=answer.person_id, received_at=record.received_at)
    roles = person_role_types_to_meta_roles(r.role_type for r in await spine.roles_of(answer.person_id))
    decision = RoutingDecision(person_id=answer.person_id, property_id=where, l1=L1Result(roles=roles))
    trace = build_trace(env, decision, None, LoopOutcome(reply=sent, notifications=answer.notifications),
                        answer.started, events=answer.events)
    trace.answered_by = "keyword"
    await spine.put_trace(trace)
    return trace
