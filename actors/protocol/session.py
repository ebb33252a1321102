"""A phone call's ops, as the replica sends them to the caller's actor and as the actor answers:
open (the agent's start and the caller's context), a tool call, the end (the transcript).
A call is a session of the caller's PersonActor (actors/host/person_session.py runs the ops)."""
from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal, Protocol

from pydantic import BaseModel, Field

from actors.protocol.keys import address_key, person_key
from spine.codec import WireModel
from spine.context import Channel, PersonContext
from spine.envelope import MessageEnvelope
from spine.records import AgentTrace, TranscriptEntry
from spine.toolspec import ToolInvocation, ToolResult

Scalar = str | int | float | bool


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


class _Op(BaseModel):
    person_id: str | None = None  # None: the caller is no Person (yet); their address actor runs it
    property_id: str
    interaction_id: str
    caller_number: str = ""
    unclaimed_at: datetime | None = None  # the replica read the number's claim then, and it named nobody

    @property
    def key(self) -> str:
        """The actor that runs it (actors.client.placement): the Person's, else the number's."""
        return person_key(self.person_id) if self.person_id else address_key(Channel.VOICE, self.caller_number)

    def as_envelope(self) -> MessageEnvelope:
        """What the actor's ownership checks read (who, where, which interaction)."""
        return MessageEnvelope(message_id=self.interaction_id, interaction_id=self.interaction_id,
                               channel=Channel.VOICE, from_address=self.caller_number, to_address="", body="",
                               property_id=self.property_id, participant_id=self.person_id,
                               unclaimed_at=self.unclaimed_at)


class CallOpen(_Op):
    kind: Literal["open"] = "open"
    voice_prompt: str | None = None  # None: the host's default voice prompt
    verified: bool = False  # Twilio's STIR/SHAKEN A verdict for this call (actors.turn.call_opening)


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
    person_id: str | None = None  # whose actor ran the op (None: an address actor's caller, no Person)


class PersonSessions(Protocol):
    """Where a call's ops go: the pool (actors.client.pool.HostPool.session), or in-process hosts
    (actors.host.in_process)."""

    async def session(self, op: CallOpen | CallTool | CallEnd) -> SessionReply: ...
