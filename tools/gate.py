"""authorize(): the matrix gate. Loads the facts (async, store I/O), then decides (pure).

Every call re-derives the caller's authority from the store; nothing the model or the
PersonActor claims about roles is trusted. On voice, a tool whose matrix row says
`verified_caller` also needs the call's verification from the store (tools/verification.py).

An impersonated turn (Ask Clara as someone else) is capped by the impersonator: the call is
decided for the person spoken as AND for the impersonating staff Person, each derived from the
store, and runs only if both may make it (an org-wide listing shows only what both reach).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from spine.context import Channel
from spine.repo import Spine
from tools.admin_turns import admin_refusal
from tools.authority import CallerFacts
from tools.caller import Caller
from tools.decide import POLICY, Decision, decide
from tools.facts import NO_TARGET, Target, load_target
from tools.matrix import Scope
from tools.verification import unverified_refusal


@dataclass(frozen=True, slots=True)
class GateOutcome:
    decision: Decision
    facts: CallerFacts | None
    target: Target


_NO_FACTS = CallerFacts(person_id=None, property_id="", org_id=None)


async def gate(spine: Spine, caller: Caller, tool_name: str, args: dict[str, Any]) -> GateOutcome:
    """The decision plus the facts and target it was made on (the handler acts on that target)."""
    outcome = await _gate(spine, caller, tool_name, args)
    if outcome.decision.allowed:  # Ask Clara: a viewer reads only; nothing is sent as an impersonated person
        refused = await admin_refusal(spine, caller, tool_name, POLICY.matrix.get(tool_name))
        if refused is not None:
            return GateOutcome(refused, outcome.facts, NO_TARGET)
    impersonator = caller.impersonator()
    if impersonator is None or not outcome.decision.allowed:
        return outcome
    capped = await _gate(spine, impersonator, tool_name, args)
    if not capped.decision.allowed:
        return GateOutcome(_capped(capped.decision, impersonator.person_id or ""), outcome.facts, NO_TARGET)
    within = _both(outcome.target.within, capped.target.within)
    return GateOutcome(outcome.decision, outcome.facts, replace(outcome.target, within=within))


def _capped(refused: Decision, impersonator: str) -> Decision:
    """The impersonator may not make this call: refused, whoever is spoken as."""
    return Decision(False, f"impersonation: {impersonator} may not: {refused.reason}", f"impersonation:{refused.rule}",
                    public=f"{impersonator}, who is asking as this person, may not: {refused.public}")


def _both(one: frozenset[str] | None, other: frozenset[str] | None) -> frozenset[str] | None:
    """The properties both reach (None: the whole org)."""
    if one is None:
        return other
    return one if other is None else one & other


async def _gate(spine: Spine, caller: Caller, tool_name: str, args: dict[str, Any]) -> GateOutcome:
    policy = POLICY.matrix.get(tool_name)
    if policy is None:
        return GateOutcome(decide(POLICY, _NO_FACTS, tool_name, NO_TARGET), None, NO_TARGET)
    facts = await caller.facts(spine)
    if not POLICY.role_permits(facts, tool_name):
        return GateOutcome(decide(POLICY, facts, tool_name, NO_TARGET), facts, NO_TARGET)
    target = await load_target(spine, facts, policy.scope, args)
    decision = decide(POLICY, facts, tool_name, target)
    if decision.allowed and policy.scope == Scope.ORG_WIDE and policy.roles != "*":
        # An org-wide listing shows only the properties the caller's role reaches.
        target = replace(target, within=facts.reach(policy.roles))
    if decision.allowed and policy.verified_caller and caller.channel == Channel.VOICE:
        # Last, so only a caller who would otherwise be allowed is told to verify (verifying is
        # what would help); the verification record is read only for these tools on the phone.
        decision = await unverified_refusal(spine, caller, tool_name) or decision
    return GateOutcome(decision, facts, target)


async def authorize(spine: Spine, caller: Caller, tool_name: str, input: dict[str, Any]) -> Decision:
    return (await gate(spine, caller, tool_name, input)).decision
