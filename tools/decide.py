"""decide(): the pure, synchronous gate decision. Role first, then target, then scope.

No I/O: every fact it reads was loaded before (tools/facts.py). The matrix is compiled once into
per-tool rules with their fixed decisions prebuilt, so an allow is a few dict and set lookups.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spine.identity import OccupancyKind
from tools.facts import CallerFacts, Target
from tools.matrix import TOOL_ROLE_MATRIX, UNIT_SCOPES, Scope, ToolPolicy


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    reason: str
    rule: str  # which rule decided: "role", "scope:<scope>", "target", "unknown-tool", or "allowed"


ScopeCheck = Callable[[CallerFacts, Target], str | None]  # None = in scope, else why not


def _unit_check(needed: frozenset[OccupancyKind]) -> ScopeCheck:
    wanted = " or ".join(sorted(needed))

    def check(facts: CallerFacts, target: Target) -> str | None:
        held = facts.units.get(target.unit_id) if target.unit_id else None
        if not held:
            return f"{facts.who} does not occupy unit {target.unit_number or target.unit_id}"
        if held.isdisjoint(needed):
            return f"{facts.who} is {'/'.join(sorted(held))} of unit {target.unit_number}, not {wanted}"
        return None

    return check


def _assigned_wo(facts: CallerFacts, target: Target) -> str | None:
    vendor = target.wo_vendor_id
    if vendor is None:
        return f"{target.work_order} has no vendor assigned"
    serviced = facts.vendor_services.get(vendor)
    if serviced is None:
        return f"{facts.who} is not a contact of {vendor}, the vendor assigned to {target.work_order}"
    if facts.property_id not in serviced:
        return f"{vendor} does not service {facts.property_id}"
    if target.property_id not in serviced:
        return f"{target.work_order} is at {target.property_id}, which {vendor} does not service"
    if target.org_id != facts.org_id:
        # Vendors work across orgs, but one org's line never acts on another org's records.
        return f"{target.work_order} belongs to {target.org_id}, not {facts.org_id} (the inbound property's org)"
    return None


def _inbound_property(facts: CallerFacts, target: Target) -> str | None:
    if target.property_id != facts.property_id:
        return f"{target.property_id} is not the inbound property {facts.property_id}"
    return None


def _self(facts: CallerFacts, target: Target) -> str | None:
    if target.subject_person_id != facts.person_id:
        return f"{facts.who} is not {target.subject_person_id}"
    return None


def _org_wide(facts: CallerFacts, target: Target) -> str | None:
    if target.org_id is None or target.org_id != facts.org_id:
        what = target.work_order or (f"unit {target.unit_number}" if target.unit_number else target.property_id)
        return f"{what} belongs to {target.org_id}, not {facts.org_id} (the inbound property's org)"
    return None


def _no_scope(facts: CallerFacts, target: Target) -> str | None:
    return None


SCOPE_CHECKS: dict[Scope, ScopeCheck] = {
    **{scope: _unit_check(kinds) for scope, kinds in UNIT_SCOPES.items()},
    Scope.ASSIGNED_WO: _assigned_wo,
    Scope.INBOUND_PROPERTY: _inbound_property,
    Scope.SELF: _self,
    Scope.ORG_WIDE: _org_wide,
    Scope.NONE: _no_scope,
}


@dataclass(frozen=True, slots=True)
class CompiledRule:
    roles: frozenset | None  # None: every caller, unknown ones included
    scope: Scope
    check: ScopeCheck
    allow: Decision
    role_refusal: Decision


def _compile_rule(name: str, policy: ToolPolicy) -> CompiledRule:
    roles = None if policy.roles == "*" else policy.roles
    who = "*" if roles is None else "|".join(sorted(roles))
    needs = "" if roles is None else " or ".join(sorted(roles))
    return CompiledRule(
        roles=roles, scope=policy.scope, check=SCOPE_CHECKS[policy.scope],
        allow=Decision(True, f"allowed: {name} ({who}, {policy.scope})", "allowed"),
        role_refusal=Decision(False, f"role: {name} needs {needs}", "role"),
    )


class Policy:
    """The matrix compiled for decide()."""

    def __init__(self, matrix: dict[str, ToolPolicy]) -> None:
        self.matrix = matrix
        self.rules = {name: _compile_rule(name, policy) for name, policy in matrix.items()}

    def role_permits(self, facts: CallerFacts, tool: str) -> bool:
        rule = self.rules.get(tool)
        return rule is not None and (rule.roles is None or not rule.roles.isdisjoint(facts.role_types))


POLICY = Policy(TOOL_ROLE_MATRIX)


def decide(policy: Policy, facts: CallerFacts, tool: str, target: Target) -> Decision:
    rule = policy.rules.get(tool)
    if rule is None:
        return Decision(False, f"unknown-tool: {tool!r} is not a Clara tool", "unknown-tool")
    if rule.roles is not None and rule.roles.isdisjoint(facts.role_types):
        return rule.role_refusal
    if target.missing is not None:
        return Decision(False, f"target: {target.missing}", "target")
    why = rule.check(facts, target)
    if why is not None:
        return Decision(False, f"scope {rule.scope}: {why}", f"scope:{rule.scope}")
    return rule.allow
