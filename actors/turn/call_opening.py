"""The opening of a phone call: who is calling, and what the voice agent is told about them.

It runs in the caller's actor (actors.host.person_session): a Person's from their warm Opening
(phone -> Person -> roles -> personContext, as for SMS), a caller who is no Person yet in their
address actor, as the router decides. It renders the voice prompt's [CONTEXT] block and shapes
the call's trace, which is the call's identity for every later tool call. The opening is answered
while the phone rings, so its own bookkeeping (the trace, context-build events) is not written
here but returned, for the replica's `CallService` to write just after answering.
"""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial

from actors.protocol.session import VoiceCallStart
from actors.turn.opening import Opening
from actors.turn.trace_builder import trace_routing
from prompts.voice import (
    HIDDEN_POINTERS,
    VoiceContextView,
    call_variables,
    first_message,
    personalized_prompt,
    voice_applicable_features,
)
from spine.context import ActivePointers, Channel, PersonContext, estimate_tokens
from spine.identity import Person
from spine.property import Property
from spine.records import (
    AgentTrace,
    EventKind,
    PromptSection,
    TraceEvent,
    TracePrompt,
    last4,
)
from spine.repo import Spine
from spine.routing_types import L1Result, MetaRole, RoutingDecision
from tools.caller import Caller, load_caller

log = logging.getLogger("clara.voice")



# Each part of a call's [CONTEXT], as the voice tool that tells a caller the same thing (None: no
# tool does, as for the model-written summary of past conversations, or who owns the number). Until
# the call is verified a part is shown only if its tool runs on an unverified call: the matrix's
# `verified_caller` column, the rule the gate applies to that tool on the same call.
CONTEXT_TOLD_BY: dict[str, str | None] = {
    "caller": None,
    "units": "get_unit_appliances",  # it answers with the unit's number
    "summary": None,
    "active_work_orders": "get_work_order_detail",
    "active_tours": "pm_list_tours",
    "active_renewal_workflow_id": "respond_to_renewal",
    "last_channel": None,
    "last_interaction_at": None,
}


@cache
def withheld_until_verified() -> frozenset[str]:
    """The [CONTEXT] parts an unverified call does not get (a part missing above is withheld)."""
    from tools.matrix import TOOL_ROLE_MATRIX

    parts = {"caller", "units", "summary", *ActivePointers.model_fields} - HIDDEN_POINTERS
    return frozenset(part for part in parts
                     if (tool := CONTEXT_TOLD_BY.get(part)) is None or TOOL_ROLE_MATRIX[tool].verified_caller)


def interaction_id_for(call_sid: str) -> str:
    """Deterministic, so a retried webhook or a second leg of the same call is the same interaction."""
    return f"voice-{call_sid}"


@dataclass(frozen=True)
class Opened:
    """An opening: the agent's start, the caller's context, and what to record once answered:
    the call's trace (built then, off the ringing caller's time) and the reasons of context-build
    events. No trace: nothing to record."""

    start: VoiceCallStart
    context: PersonContext
    trace: Callable[[], AgentTrace] | None = None
    context_builds: list[str] = field(default_factory=list)


def minimal_opening(voice_prompt: str, iid: str) -> Opened:
    """Minimal context for an unknown caller: what a call gets when nothing else can be had."""
    view = VoiceContextView(l1=L1Result(roles=[MetaRole.OTHER]), context=PersonContext(person_id=""), degraded=True)
    start = VoiceCallStart(interaction_id=iid, dynamic_variables=call_variables(view, iid),
                           prompt=personalized_prompt(voice_prompt, view), first_message=first_message(view),
                           degraded=True)
    return Opened(start=start, context=view.context)


async def open_from(spine: Spine, voice_prompt: str, opening: Opening | None, decision: RoutingDecision,
                    caller_number: str, iid: str, *, verified: bool = False) -> Opened:
    """A call's opening, in the caller's actor: from their PersonActor's warm Opening (nothing
    about them is read again), or, with no Opening, for a caller who is no Person (an address
    actor's), with nobody's records. `verified`: Twilio's STIR/SHAKEN A verdict reached us for
    this call (the bridge's signed parameters); every other call opens unverified, with [CONTEXT]
    to match."""
    property_id = opening.property_id if opening is not None else decision.property_id
    prop = await spine.get_property(property_id)  # reference data: cached
    if prop is None:  # the property went away since the call was placed: a call as to an unknown number
        log.warning("voice call %s: property %s is gone", iid, property_id)
        return minimal_opening(voice_prompt, iid)
    if opening is None:
        caller = await load_caller(spine, None, prop.id, iid, Channel.VOICE)
        return await _opened(spine, voice_prompt, iid, prop, decision, None, caller, PersonContext(person_id=""),
                             [], [], caller_number, verified)
    caller = opening.caller(iid, Channel.VOICE)
    if not opening.facts.records_visible:  # no active role here: nothing of the number's owner goes into [CONTEXT]
        return await _opened(spine, voice_prompt, iid, prop, decision, None, caller,
                             PersonContext(person_id=opening.person_id), [], [], caller_number, verified)
    builds = [str(opening.context_gap)] if opening.context_gap else []
    events = [TraceEvent(kind=EventKind.CONTEXT_BUILD, reason=b) for b in builds]
    opening.context_gap = None  # reported once, here
    return await _opened(spine, voice_prompt, iid, prop, decision, opening.person, caller, opening.context, events,
                         builds, caller_number, verified)


async def _opened(spine: Spine, voice_prompt: str, iid: str, prop: Property, decision: RoutingDecision,
                  person: Person | None, caller: Caller, context: PersonContext, events: list[TraceEvent],
                  builds: list[str], caller_number: str, verified: bool) -> Opened:
    pid = decision.person_id
    facts = await caller.facts(spine)  # derived with the caller: no store read
    if decision.graceful_degrade_reason:
        events.append(TraceEvent(kind=EventKind.GRACEFUL_DEGRADE, reason=decision.graceful_degrade_reason))
    view = VoiceContextView(
        caller_name=person.display_name if person else None, person_id=pid, known=bool(person and facts.role_types),
        l1=decision.l1, features=_voice_features(decision.l1.roles), property_name=prop.name,
        units=[facts.unit_numbers[u] for u in sorted(facts.unit_numbers)], context=context, tool_names=_voice_tools_for(caller),
        # Withheld only where there is something of the number's owner to withhold.
        withheld=withheld_until_verified() if person and facts.role_types and not verified else frozenset())
    # Every value below is built by our own typed code, so it is not validated a second time.
    start = VoiceCallStart.model_construct(
        interaction_id=iid, person_id=pid, property_id=prop.id, dynamic_variables=call_variables(view, iid),
        prompt=personalized_prompt(voice_prompt, view), first_message=first_message(view),
        suppressed=decision.reply_suppressed)
    trace = partial(_trace, voice_prompt, start, decision, view, caller_number, events)
    return Opened(start=start, context=context, trace=trace, context_builds=builds)


def _trace(voice_prompt: str, start: VoiceCallStart, decision: RoutingDecision, view: VoiceContextView,
           caller_number: str, events: list[TraceEvent]) -> AgentTrace:
    return AgentTrace(
        interaction_id=start.interaction_id, channel=Channel.VOICE, participant_id=start.person_id,
        property_id=start.property_id, wire_address_last4=last4(caller_number), events=events,
        tools_offered=view.tool_names,
        routing=trace_routing(decision.l1),
        prompt=TracePrompt(sections=[
            PromptSection(layer="L0", name="voice_prompt", token_estimate=estimate_tokens(voice_prompt)),
            PromptSection(layer="context", name="voice_context",
                          token_estimate=estimate_tokens(start.prompt) - estimate_tokens(voice_prompt))]))


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


def e164_or_raw(number: str) -> str:
    from spine.phone import InvalidPhoneNumber, normalize_phone

    try:
        return normalize_phone(number)
    except InvalidPhoneNumber:
        return number

