"""authorize(): the matrix gate. Loads the facts (async, store I/O), then decides (pure).

Every call re-derives the caller's authority from the store; nothing the model or the
PersonActor claims about roles is trusted. On voice, a tool whose matrix row says
`verified_caller` also needs the call's verification from the store (tools/verification.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from spine.context import Channel
from spine.repo import Spine
from tools.caller import Caller, CallerFacts
from tools.decide import POLICY, Decision, decide
from tools.facts import NO_TARGET, Target, load_facts, load_target
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
    policy = POLICY.matrix.get(tool_name)
    if policy is None:
        return GateOutcome(decide(POLICY, _NO_FACTS, tool_name, NO_TARGET), None, NO_TARGET)
    facts = await load_facts(spine, caller)
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
