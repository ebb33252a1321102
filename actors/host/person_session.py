"""A phone call as a session of the caller's PersonActor.

The voice webhooks and the media bridge run in a Serve replica, but what a call does happens in
the caller's PersonActor, in its mailbox, in order with the person's texts: the call opens there
(`CallOpen`), each server tool runs there (`CallTool`; a tool that writes invalidates the Opening,
so a text sent during the call sees the work order the call filed), and the call's end is the end
of the interaction (`CallEnd`): one personContext refresh over the texts and the call together,
not one for each. A caller who is no Person yet is an address actor's (`addr:voice:<number>`, as
an unknown SMS sender is): it checks the claim first and answers Moved to the Person once there
is one; otherwise the router decides (the 'other' lane, or a prospect it mints, whose actor the
address actor then hands over to). These ops cross processes as msgpack bytes of their pydantic
dumps, like MessageEnvelopes.
"""
from __future__ import annotations

import time
from typing import Protocol

from actors.dispatcher.dispatcher import writes
from actors.host.takeover_turns import taken_over_call
from actors.protocol.session import (
    CallEnd,
    CallOpen,
    CallTool,
    OpenedCall,
    SessionReply,
)
from actors.protocol.turn import TurnDeps
from actors.turn.call_opening import open_from
from actors.turn.call_tools import not_on_the_phone
from actors.turn.opening import Opening, open_for
from spine.context import Channel
from spine.records import TranscriptEntry
from spine.router import route_inbound, route_person
from spine.routing_types import RoutingDecision
from tools.caller import Caller, load_caller


class SessionActor(Protocol):
    """What an op needs of the PersonActor it runs in (actors.host.person_actor.PersonActor)."""

    @property
    def person_id(self) -> str | None: ...

    @property
    def opening(self) -> Opening | None: ...

    @property
    def deps(self) -> TurnDeps: ...

    async def end_interaction(self, interaction_id: str, said: list[TranscriptEntry]) -> bool: ...


async def run_op(actor: SessionActor, op: CallOpen | CallTool | CallEnd) -> SessionReply:
    """One op, in the actor's mailbox, after the actor made sure it owns the caller (a Person's
    actor: its Opening is current; an address actor: the number is still claimed by nobody)."""
    opening, deps = actor.opening, actor.deps
    if isinstance(op, CallOpen):
        return await _open(deps, opening, op)
    if isinstance(op, CallTool):
        result = not_on_the_phone(op.invocation) or await deps.tools.run(op.invocation,
                                                                         await _caller(deps, opening, op))
        if opening is not None and writes(result.name, result.decision, result.is_error):
            opening.wrote()  # the person's next text (or tool) reads the store again
        return SessionReply(result=result, person_id=actor.person_id)
    refreshed = await actor.end_interaction(op.interaction_id, op.transcript)
    return SessionReply(refreshed=refreshed, person_id=actor.person_id)


async def _caller(deps: TurnDeps, opening: Opening | None, op: CallTool) -> Caller:
    """The Opening's caller; on an address actor, no Person's (derived from the store, as the gate does)."""
    if opening is not None:
        return opening.caller(op.interaction_id, Channel.VOICE)
    return await load_caller(deps.spine, None, op.property_id, op.interaction_id, Channel.VOICE)


async def _open(deps: TurnDeps, opening: Opening | None, op: CallOpen) -> SessionReply:
    """The one opening of a call, for a Person (from their warm Opening) and for a caller who is
    none (an address actor: routed as an unknown caller, who may come out of it a minted prospect)."""
    from prompts.voice import default_voice_prompt

    decision = await _route(deps, opening, op)
    if opening is None and decision.person_id is not None:  # minted just now, or claimed meanwhile
        opening = await open_for(deps.spine, deps.authority_source, decision.person_id, op.property_id,
                                 channel=Channel.VOICE, address=op.caller_number, interaction_id=op.interaction_id,
                                 now=time.time())
    opened = await open_from(deps.spine, op.voice_prompt or default_voice_prompt(), opening, decision,
                             op.caller_number, op.interaction_id, verified=op.verified)
    start = opened.start
    if start.person_id:
        start = await taken_over_call(deps.spine, start.person_id, start)
    trace = opened.trace() if opened.trace is not None else None
    if trace is None:  # the property went away: nothing to record, the call gets the minimal opening
        return SessionReply(opened=None, person_id=decision.person_id)
    return SessionReply(opened=OpenedCall(start=start, context=opened.context, trace=trace,
                                          context_builds=opened.context_builds), person_id=decision.person_id)


async def _route(deps: TurnDeps, opening: Opening | None, op: CallOpen) -> RoutingDecision:
    if opening is not None:
        authority = opening.authority
        assert opening.person is not None  # a PersonActor opens only for a Person the store holds
        return await route_person(deps.spine, person=opening.person, roles=authority.roles,
                                  roles_elsewhere=authority.roles_elsewhere, channel=Channel.VOICE,
                                  wire_address=op.caller_number, property_id=op.property_id, message="",
                                  interaction_id=op.interaction_id)
    # The address actor read the claim just now (PersonActor._own): nobody's, so not read again.
    return await route_inbound(deps.spine, channel=Channel.VOICE, wire_address=op.caller_number,
                               property_id=op.property_id, message="", interaction_id=op.interaction_id,
                               confirmer=deps.confirmer, claim_absent=True)
