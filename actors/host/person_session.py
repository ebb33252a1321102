"""A phone call as a session of the caller's PersonActor.

The voice webhooks and the media bridge run in a Serve replica, but what a call does happens in
the caller's PersonActor, in its mailbox, in order with the person's texts: the call opens from
the actor's warm Opening (`CallOpen`), each server tool runs there with the Opening's caller
(`CallTool`; a tool that writes invalidates the Opening, so a text sent during the call sees the
work order the call filed), and the call's end is the end of the interaction (`CallEnd`): one
personContext refresh over the texts and the call together, not one for each. These ops cross
processes as msgpack bytes of their pydantic dumps, like MessageEnvelopes.
"""
from __future__ import annotations

from typing import Annotated, Literal, Protocol

from pydantic import BaseModel, Field

from actors.dispatcher.dispatcher import writes
from actors.host.takeover_turns import taken_over_call
from actors.turn.opening import Opening
from actors.turn.turn_types import TurnDeps
from actors.voice.opening import VoiceCallStart, open_from
from actors.voice.tools import not_on_the_phone
from spine.codec import WireModel
from spine.context import Channel, PersonContext
from spine.envelope import MessageEnvelope
from spine.records import AgentTrace, TranscriptEntry
from spine.router import route_person
from spine.toolspec import ToolInvocation, ToolResult


class _Op(BaseModel):
    person_id: str
    property_id: str
    interaction_id: str
    caller_number: str = ""

    def as_envelope(self) -> MessageEnvelope:
        """What the actor's ownership checks read (who, where, which interaction)."""
        return MessageEnvelope(message_id=self.interaction_id, interaction_id=self.interaction_id,
                               channel=Channel.VOICE, from_address=self.caller_number, to_address="", body="",
                               property_id=self.property_id, participant_id=self.person_id)


class CallOpen(_Op):
    kind: Literal["open"] = "open"
    voice_prompt: str | None = None  # None: the host's default voice prompt
    verified: bool = False  # Twilio's STIR/SHAKEN A verdict for this call (actors.voice.opening)


class CallTool(_Op):
    kind: Literal["tool"] = "tool"
    invocation: ToolInvocation


class CallEnd(_Op):
    kind: Literal["end"] = "end"
    transcript: list[TranscriptEntry] = Field(default_factory=list)


SessionOp = Annotated[CallOpen | CallTool | CallEnd, Field(discriminator="kind")]


class SessionRequest(WireModel):
    op: SessionOp


class OpenedCall(BaseModel):
    start: VoiceCallStart
    context: PersonContext  # what the call's speculative prefetch reads
    trace: AgentTrace
    context_builds: list[str] = Field(default_factory=list)


class SessionReply(BaseModel):
    opened: OpenedCall | None = None
    result: ToolResult | None = None
    refreshed: bool = False


class PersonSessions(Protocol):
    """Where a call's ops go: the pool (actors.client.pool.HostPool.session), or a test's hosts."""

    async def session(self, op: CallOpen | CallTool | CallEnd) -> SessionReply: ...


class SessionActor(Protocol):
    """What an op needs of the PersonActor it runs in (actors.host.person_actor.PersonActor)."""

    @property
    def opening(self) -> Opening | None: ...

    @property
    def deps(self) -> TurnDeps: ...

    async def end_interaction(self, interaction_id: str, said: list[TranscriptEntry]) -> bool: ...


async def run_op(actor: SessionActor, op: CallOpen | CallTool | CallEnd) -> SessionReply:
    """One op, in the actor's mailbox, after the actor made sure it owns the person and its
    Opening is current (PersonActor._handle)."""
    opening, deps = actor.opening, actor.deps
    assert opening is not None
    if isinstance(op, CallOpen):
        from prompts.voice import default_voice_prompt

        authority = opening.authority
        assert opening.person is not None  # a PersonActor opens only for a Person the store holds
        decision = await route_person(deps.spine, person=opening.person, roles=authority.roles,
                                      roles_elsewhere=authority.roles_elsewhere, channel=Channel.VOICE,
                                      wire_address=op.caller_number, property_id=op.property_id, message="",
                                      interaction_id=op.interaction_id)
        opened = await open_from(deps.spine, op.voice_prompt or default_voice_prompt(), opening, decision,
                                 op.caller_number, op.interaction_id, verified=op.verified)
        assert opened.trace is not None  # an opening from a warm Opening always has its trace
        start = await taken_over_call(deps.spine, op.person_id, opened.start)
        return SessionReply(opened=OpenedCall(start=start, context=opened.context, trace=opened.trace(),
                                              context_builds=opened.context_builds))
    if isinstance(op, CallTool):
        result = not_on_the_phone(op.invocation) or await deps.tools.run(
            op.invocation, opening.caller(op.interaction_id, Channel.VOICE))
        if writes(result.name, result.decision, result.is_error):
            opening.wrote()  # the person's next text (or tool) reads the store again
        return SessionReply(result=result)
    return SessionReply(refreshed=await actor.end_interaction(op.interaction_id, op.transcript))
