"""One interaction, from inbound envelope to reply and trace (ARCHITECTURE "One inbound").

Opening (the PersonActor's warm one, or routed and opened here) -> L1 -> prompt (cached prefix +
volatile block) -> prefetch || agent loop -> safety net -> reply (never empty) -> trace, which
records the store reads the turn made. Every failure path still ends in a reply and a trace.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable
from typing import Any

from actors.dispatcher.dispatcher import fold_prefetch, writes
from actors.model.base import ModelRequest
from actors.model.pricing import cost_usd
from actors.model.turn_facts import Tenancy, TurnFacts, turn_facts
from actors.protocol.turn import LoopOutcome, TurnDeps, TurnResult
from actors.turn.agent_loop import run_agent_loop
from actors.turn.introduce import introduce
from actors.turn.opening import Opening, open_for, prompt_for
from actors.turn.trace_builder import build_trace, trace_call
from desk.outbound.queue import LAST_CHANNELS
from prompts.assemble import assemble_prompt
from prompts.safety import detect_emergency, emergency_nudge
from spine.context import PersonContext
from spine.envelope import MessageEnvelope
from spine.events import emit_event
from spine.intent.language import detect_language, language_of
from spine.records import EventKind, LastContact, TraceEvent
from spine.router import route_inbound, route_person
from spine.routing_types import L1Result, MetaRole, RoutingDecision
from spine.store import StoreError
from spine.store.counting import ReadCount
from spine.toolspec import ToolInvocation, ToolSpec
from tools.caller import Caller, load_caller
from tools.catalog import facility_tools, role_tools_for, shared_role_tools
from tools.photos import attach_requested_photos
from tools.prefetch import prefetch_candidates

log = logging.getLogger("clara.interaction")


FALLBACK_REPLY = ("Sorry, I'm having trouble right now. I've passed your message to our team and "
                  "someone will follow up shortly.")


async def _no_person_context(deps: TurnDeps, env: MessageEnvelope) -> tuple[PersonContext, list[TraceEvent]]:
    await emit_event(deps.spine, EventKind.CONTEXT_BUILD, "personId_missing", channel=env.channel,
                     address=env.from_address, property_id=env.property_id, interaction_id=env.interaction_id)
    return PersonContext(person_id=""), [TraceEvent(kind=EventKind.CONTEXT_BUILD, reason="personId_missing")]


async def _opening_context(deps: TurnDeps, env: MessageEnvelope, opening: Opening,
                           in_session: bool) -> tuple[PersonContext, list[TraceEvent]]:
    """The eager tier from the Opening; a context the Opening had to build (no persisted
    snapshot) is reported once, on the first turn of the session."""
    gap = opening.context_gap
    if gap is None or in_session:
        return opening.context, []
    opening.context_gap = None
    await emit_event(deps.spine, EventKind.CONTEXT_BUILD, gap, channel=env.channel, address=env.from_address,
                     property_id=env.property_id, interaction_id=env.interaction_id)
    return opening.context, [TraceEvent(kind=EventKind.CONTEXT_BUILD, reason=gap)]


async def _escalate(deps: TurnDeps, caller: Caller, out: LoopOutcome, tool_use_id: str, reason: str,
                    urgency: str, body: str) -> None:
    """Escalate on the turn's behalf (the model did not), recorded in its trace like a model's call."""
    inv = ToolInvocation(name="escalate_to_human", tool_use_id=tool_use_id,
                         input={"reason": reason, "urgency": urgency, "summary": body[:500]})
    result = await deps.tools.run(inv, caller)
    out.tool_calls.append(trace_call(inv, result))
    out.notifications += result.notifications


async def safety_net(deps: TurnDeps, caller: Caller, env: MessageEnvelope, out: LoopOutcome) -> list[TraceEvent]:
    """An emergency gets a 911 nudge and an escalation even if the model made neither."""
    match = detect_emergency(env.body)
    if match is None:
        return []
    if not _escalated(out):
        await _escalate(deps, caller, out, "safety-net", f"Emergency reported: {match.brief}", "emergency",
                        env.body)
    if "911" not in out.reply:  # the model may already have said it in its own words
        out.reply = f"{emergency_nudge(detect_language(env.body))} {out.reply}".strip()
    if env.origin == "admin" and not _escalated(out):  # Ask Clara: the gate sent nothing (tools.admin_turns)
        out.reply = f"{out.reply} {ADMIN_EMERGENCY_NOTE.format(kind=match.kind)}"
    return [TraceEvent(kind=EventKind.SAFETY, reason=match.kind)]


# What the staff member sees when an Ask Clara turn (impersonated, or a viewer's) hit an emergency.
ADMIN_EMERGENCY_NOTE = ("[Ask Clara: an emergency was detected ({kind}). Nothing was escalated, paged or sent in "
                        "this person's name; if it is real, page the on-call team from the console.]")


def _escalated(out: LoopOutcome) -> bool:
    return any(c.name == "escalate_to_human" and not c.is_error for c in out.tool_calls)


async def _fail_safe(deps: TurnDeps, caller: Caller, env: MessageEnvelope, out: LoopOutcome) -> list[TraceEvent]:
    """The model failed: reply with the fallback and put a human on it."""
    if out.reply:
        return []
    reason = out.failure or "empty model reply"
    await emit_event(deps.spine, EventKind.MODEL_FAILURE, "model_unavailable", channel=env.channel,
                     address=env.from_address, property_id=env.property_id,
                     interaction_id=env.interaction_id, detail={"error": reason})
    if not any(c.name == "escalate_to_human" for c in out.tool_calls):
        await _escalate(deps, caller, out, "model-fallback", f"Clara could not answer: {reason}", "urgent", env.body)
    out.reply = FALLBACK_REPLY
    return [TraceEvent(kind=EventKind.MODEL_FAILURE, reason=reason)]


async def run_interaction(deps: TurnDeps, env: MessageEnvelope, history: list[dict[str, Any]] | None = None,
                          opening: Opening | None = None) -> TurnResult:
    """One turn. With the PersonActor's warm `opening` nothing about the person is read again;
    without one (an unknown caller, a test) the turn routes from the store and opens one itself."""
    started = time.monotonic()
    with ReadCount(join=True) as reads:
        try:
            decision, opening = await _route(deps, env, opening)
        except StoreError as exc:
            log.error("routing failed for interaction %s: %s", env.interaction_id, exc)
            return _store_down_result(env, started, str(exc))
        if decision.reply_suppressed:
            trace = build_trace(env, decision, None, LoopOutcome(), started, store_reads=reads.as_dict(), events=[
                *_sender_events(env),
                TraceEvent(kind=EventKind.GRACEFUL_DEGRADE, reason=decision.graceful_degrade_reason or "suppressed")])
            await deps.spine.put_trace(trace)
            return TurnResult(interaction_id=env.interaction_id, person_id=decision.person_id, reply="",
                              suppressed=True, trace=trace)
        return await _converse(deps, env, decision, opening, history or [], started, reads)


async def _route(deps: TurnDeps, env: MessageEnvelope, opening: Opening | None) -> tuple[RoutingDecision, Opening | None]:
    if opening is not None and opening.person is not None:
        authority = opening.authority
        decision = await route_person(deps.spine, person=opening.person, roles=authority.roles,
                                      roles_elsewhere=authority.roles_elsewhere, channel=env.channel,
                                      wire_address=env.from_address, property_id=env.property_id,
                                      message=env.body, interaction_id=env.interaction_id)
        return decision, opening
    decision = await route_inbound(deps.spine, channel=env.channel, wire_address=env.from_address,
                                   property_id=env.property_id, message=env.body,
                                   interaction_id=env.interaction_id, confirmer=deps.confirmer,
                                   sender_verified=env.sender_verified, claim_absent=env.claim_absent())
    if decision.person_id is None or decision.reply_suppressed:
        return decision, None
    opening = await open_for(deps.spine, deps.authority_source, decision.person_id, env.property_id, channel=env.channel,
                             address=env.from_address, interaction_id=env.interaction_id, now=time.time())
    return decision, opening


async def _converse(deps: TurnDeps, env: MessageEnvelope, decision: RoutingDecision, opening: Opening | None,
                    history: list[dict[str, Any]], started: float, reads: ReadCount) -> TurnResult:
    if opening is not None:
        caller = opening.caller(env.interaction_id, env.channel, env.impersonated_by)
        if opening.facts.records_visible:
            context, events = await _opening_context(deps, env, opening, in_session=bool(history))
            name = opening.person.display_name if opening.person else None
        else:  # no active role here: nothing of the number's owner goes into the prompt
            context, events, name = PersonContext(person_id=opening.person_id), [], None
        prompt = await prompt_for(deps.spine, opening, caller, decision.l1, env.origin, context, name,
                                  await _capped_tools(deps, caller))
    else:
        caller = await load_caller(deps.spine, None, env.property_id, env.interaction_id, env.channel,
                                   env.impersonated_by)
        context, events = await _no_person_context(deps, env)
        role_tools = await _capped_tools(deps, caller)
        prompt = assemble_prompt(l1=decision.l1, property=await deps.spine.get_property(env.property_id),
                                 facility_tools=facility_tools(),
                                 role_tools=role_tools if role_tools is not None else role_tools_for(caller),
                                 context=context, origin=env.origin)
    events = [*_sender_events(env), *events]
    photos_for = await _attach_photos(deps, caller, env, events)
    facts = _turn_facts(decision, opening if opening is not None and opening.facts.records_visible else None, context)
    request = ModelRequest(system=prompt.system, tools=prompt.tools, facts=facts,
                           messages=[*history, {"role": "user", "content": _user_text(env, photos_for)}])
    prefetch = _start_lookups(deps, env, opening, context, caller)
    out = await run_agent_loop(deps.model, deps.tools, caller, request, deps.budget, started)
    report: list[dict[str, Any]] = []
    if prefetch is not None:
        try:  # the lookups' statuses, "hit" where a call was served from one: the trace's report
            report = fold_prefetch(await prefetch, [(c.name, c.input, c.prefetched) for c in out.tool_calls])
        except Exception as exc:  # noqa: BLE001 - a failed speculation costs the report, never the reply
            log.warning("prefetch for %s failed: %s", env.interaction_id, exc)
    events += await _fail_safe(deps, caller, env, out)
    events += await safety_net(deps, caller, env, out)
    out.reply = await introduce(deps.spine, env, decision.person_id, opening, out.reply)
    if opening is not None and any(writes(c.name, c.decision, c.is_error) for c in out.tool_calls):
        opening.wrote()  # the next turn reads again what these tools may have changed
    if decision.intent_evidence:  # the trace keeps why an unknown sender was promoted to prospect
        events.append(TraceEvent(kind=EventKind.INTENT_PROMOTED, reason=decision.intent_evidence[:300]))
    if decision.graceful_degrade_reason:
        events.append(TraceEvent(kind=EventKind.GRACEFUL_DEGRADE, reason=decision.graceful_degrade_reason))
    trace = build_trace(env, decision, prompt, out, started, events=events, prefetch=report,
                        cost=cost_usd(out.model, out.usage), store_reads=reads.as_dict())
    await deps.spine.put_trace(trace)
    await _note_contact(deps, env, decision, opening)
    return TurnResult(interaction_id=env.interaction_id, person_id=decision.person_id, reply=out.reply, trace=trace)


def _start_lookups(deps: TurnDeps, env: MessageEnvelope, opening: Opening | None, context: PersonContext,
                   caller: Caller) -> Awaitable[list[dict[str, Any]]] | None:
    """Speculative prefetch, beside the first model call: the lookups started with the Opening's
    re-check (actors.turn.turn_start), else started here; no candidates, no dispatcher hop."""
    handed, lookups = opening.take_lookups(env.interaction_id) if opening is not None else (False, None)
    if handed:
        return lookups
    candidates = prefetch_candidates(env.body, context, caller) if deps.prefetch else []
    return asyncio.ensure_future(deps.tools.prefetch(candidates, caller)) if candidates else None


async def _capped_tools(deps: TurnDeps, caller: Caller) -> list[ToolSpec] | None:
    """An impersonated turn (Ask Clara as someone else) is offered only the role tools the
    impersonating staff Person may call too, their authority derived by the dispatcher; None
    when nobody (or the operator) impersonates. The gate applies the same cap to every call."""
    impersonator = caller.impersonator()
    if impersonator is None:
        return None
    authority = await deps.authority_source.authority(impersonator.person_id, caller.property_id)
    return shared_role_tools(caller, Caller.of(authority, caller.interaction_id, caller.channel))


async def _note_contact(deps: TurnDeps, env: MessageEnvelope, decision: RoutingDecision,
                        opening: Opening | None) -> None:
    """Where the person last wrote from: what the gateway starts for them goes there (desk.outbound.queue).
    Written when it changes, not every turn; an admin's impersonation is not the person writing."""
    if decision.person_id is None or env.channel not in LAST_CHANNELS or env.origin != "inbound":
        return
    before = opening.contact_noted if opening is not None else None
    known = before[2] if before else None
    # The language known so far is the prior of a very short text; an "ok" keeps it.
    language = language_of(env.body, prior=known if known in ("en", "es") else None) or known
    noted = (str(env.channel), env.from_address, language)
    if before == noted:
        return
    try:
        await deps.spine.note_last_contact(LastContact(person_id=decision.person_id, channel=env.channel,
                                                       address=env.from_address, language=language,
                                                       at=env.received_at))
    except StoreError as exc:  # the reply matters more; the next turn writes it again
        log.warning("last contact of interaction %s not written: %s", env.interaction_id, exc)
        return
    if opening is not None:
        opening.contact_noted = noted


def _sender_events(env: MessageEnvelope) -> list[TraceEvent]:
    """How the channel judged the sender's address (email: SPF/DKIM alignment), so the trace says
    why a known address was or was not treated as its Person."""
    if env.sender_check is None:
        return []
    kind = EventKind.SENDER_VERIFIED if env.sender_verified else EventKind.SENDER_UNVERIFIED
    return [TraceEvent(kind=kind, reason=env.sender_check)]


def _turn_facts(decision: RoutingDecision, opening: Opening | None, context: PersonContext) -> TurnFacts:
    """The turn as values, for a backend that must not read the prompt (the offline policy)."""
    if opening is None:
        return turn_facts(decision.l1, [], [], context, None)
    facts = opening.facts
    tenancies = [Tenancy(unit=facts.unit_numbers.get(unit_id, unit_id), kind=kind)
                 for unit_id, kinds in sorted(facts.units.items()) for kind in sorted(kinds)]
    name = opening.person.display_name if opening.person else None
    return turn_facts(decision.l1, sorted(facts.role_types), tenancies, context, name)


def _user_text(env: MessageEnvelope, photos_for: str | None) -> str:
    if not env.media_urls:
        return env.body
    where = f"; attached to {photos_for}, which asked for a photo" if photos_for else ""
    return env.body + "\n[attached media: " + ", ".join(env.media_urls) + where + "]"


async def _attach_photos(deps: TurnDeps, caller: Caller, env: MessageEnvelope, events: list[TraceEvent]) -> str | None:
    """MMS that answers a photo request lands on its work order (tools.photos); the display id."""
    if not env.media_urls:
        return None
    try:
        wo = await attach_requested_photos(deps.spine, caller, env.media_urls)
    except StoreError as exc:  # the photos are still in the conversation; the turn goes on
        events.append(TraceEvent(kind=EventKind.PHOTOS_ATTACHED, reason=f"not attached: {exc}"[:200]))
        return None
    if wo is not None:
        events.append(TraceEvent(kind=EventKind.PHOTOS_ATTACHED, reason=wo.display_id))
    return wo.display_id if wo else None


def _store_down_result(env: MessageEnvelope, started: float, error: str) -> TurnResult:
    """The store is down: we cannot even tell who is talking. Reply safely; the gateway keeps
    the inbound record (or its failure) so nothing is lost."""
    decision = RoutingDecision(person_id=None, property_id=env.property_id, l1=L1Result(roles=[MetaRole.OTHER]))
    out = LoopOutcome(reply=FALLBACK_REPLY, failure=error)
    trace = build_trace(env, decision, None, out, started,
                        events=[TraceEvent(kind=EventKind.STORE_DEGRADED, reason=error[:200])])
    return TurnResult(interaction_id=env.interaction_id, person_id=None, reply=FALLBACK_REPLY, trace=trace)
