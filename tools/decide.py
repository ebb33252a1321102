"""decide(): the pure, synchronous gate decision. Role first, then target, then scope.

No I/O: every fact it reads was loaded before (tools/facts.py). The matrix is compiled once into
per-tool rules with their fixed decisions prebuilt, so an allow is a few dict and set lookups.

A refusal carries two texts: `reason`, the whole story for the trace and operators (where the
work order is, which vendor holds it), and `public`, the rule alone, for the model and so for the
caller. `public` reads the same whether the thing named is someone else's or does not exist, so
refusals never tell a caller what exists, where, or whose it is.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from spine.identity import OccupancyKind, PersonRoleType
from spine.work import is_display_id
from tools.authority import CallerFacts
from tools.facts import Target
from tools.matrix import TOOL_ROLE_MATRIX, UNIT_SCOPES, Scope, ToolPolicy


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    reason: str  # the full reason, for the trace
    rule: str  # which rule decided: "role", "scope:<scope>", "target", "unknown-tool", or "allowed"
    public: str = ""  # what the model is told on a refusal: the rule, not the facts


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


def _org_wide(roles: frozenset[PersonRoleType] | None) -> ScopeCheck:
    """In the inbound property's org, and within the properties the caller's staff role reaches:
    a role limited to one property acts on that property's records only."""
    tool_roles = roles or frozenset()

    def check(facts: CallerFacts, target: Target) -> str | None:
        if target.org_id is None or target.org_id != facts.org_id:
            return f"{_what(target)} belongs to {target.org_id}, not {facts.org_id} (the inbound property's org)"
        if not tool_roles.isdisjoint(facts.org_wide_roles):
            return None
        if not tool_roles.isdisjoint(facts.property_roles.get(target.property_id or "", ())):
            return None
        reach = sorted(p for p, held in facts.property_roles.items() if not tool_roles.isdisjoint(held))
        return f"{_what(target)} is at {target.property_id}; {facts.who}'s role reaches only {', '.join(reach)}"

    return check


def _what(target: Target) -> str:
    return target.work_order or (f"unit {target.unit_number}" if target.unit_number else str(target.property_id))


def _no_scope(facts: CallerFacts, target: Target) -> str | None:
    return None


SCOPE_CHECKS: dict[Scope, ScopeCheck] = {
    **{scope: _unit_check(kinds) for scope, kinds in UNIT_SCOPES.items()},
    Scope.ASSIGNED_WO: _assigned_wo,
    Scope.INBOUND_PROPERTY: _inbound_property,
    Scope.SELF: _self,
    Scope.NONE: _no_scope,
}


# What the model hears when a named target is refused, by scope; the same words whether it is
# someone else's or does not exist.
def _not_yours(kind: str) -> Callable[[str], str]:
    return lambda named: f"{named} is not {kind}"


PUBLIC_REFUSALS: dict[Scope, Callable[[str], str]] = {
    **{scope: (lambda named: f"{named} is not a work order of yours" if is_display_id(named)
               else f"{named} is not a unit of yours") for scope in UNIT_SCOPES},
    Scope.ASSIGNED_WO: _not_yours("a work order assigned to you"),
    Scope.ORG_WIDE: _not_yours("within what your role covers from this line"),
    Scope.INBOUND_PROPERTY: _not_yours("this property's"),
    Scope.SELF: _not_yours("yours"),
    Scope.NONE: _not_yours("available"),
}
# A refusal that names nothing (no unit given and none or several held): the rule, for the model
# to ask the caller.
UNNAMED_REFUSALS: dict[Scope, str] = {
    **dict.fromkeys(UNIT_SCOPES, "this needs a unit of yours; ask which unit (or it is not one you hold)"),
    Scope.ASSIGNED_WO: "this needs a work order assigned to you; ask which one",
}
OCCUPANCY_REFUSAL = {scope: f"only the {' or '.join(sorted(kinds))} of a unit may do this"
                     for scope, kinds in UNIT_SCOPES.items()}


def public_refusal(scope: Scope, target: Target, facts: CallerFacts | None = None) -> str:
    """The rule a refusal of `target` under `scope` tells the model."""
    if facts is not None and scope in UNIT_SCOPES and target.unit_id in facts.units:
        return OCCUPANCY_REFUSAL[scope]  # the caller's own unit, held as the wrong kind
    if target.named:
        return PUBLIC_REFUSALS[scope](target.named)
    return UNNAMED_REFUSALS.get(scope, "that is not something you can do here")


@dataclass(frozen=True, slots=True)
class CompiledRule:
    roles: frozenset[PersonRoleType] | None  # None: every caller, unknown ones included
    scope: Scope
    check: ScopeCheck
    allow: Decision
    role_refusal: Decision


def _compile_rule(name: str, policy: ToolPolicy) -> CompiledRule:
    roles = None if policy.roles == "*" else policy.roles
    who = "*" if roles is None else "|".join(sorted(roles))
    needs = "" if roles is None else " or ".join(sorted(roles))
    check = _org_wide(roles) if policy.scope == Scope.ORG_WIDE else SCOPE_CHECKS[policy.scope]
    role_reason = f"role: {name} needs {needs}"
    return CompiledRule(
        roles=roles, scope=policy.scope, check=check,
        allow=Decision(True, f"allowed: {name} ({who}, {policy.scope})", "allowed"),
        role_refusal=Decision(False, role_reason, "role", public=f"{name} is not available to you"),
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
        unknown = f"{tool!r} is not a Clara tool"
        return Decision(False, f"unknown-tool: {unknown}", "unknown-tool", public=unknown)
    if rule.roles is not None and rule.roles.isdisjoint(facts.role_types):
        return rule.role_refusal
    if target.missing is not None:
        return Decision(False, f"target: {target.missing}", "target", public=public_refusal(rule.scope, target))
    why = rule.check(facts, target)
    if why is not None:
        return Decision(False, f"scope {rule.scope}: {why}", f"scope:{rule.scope}",
                        public=public_refusal(rule.scope, target, facts))
    return rule.allow
