"""The matrix gate's decision speed, side by side with pycasbin and cedarpy in one run.

Every engine holds the same policy (TOOL_ROLE_MATRIX: one casbin policy line per (role, tool,
scope); one Cedar `permit` per tool, per role for the org-wide tools, whose reach is bounded by the
properties a staff role is scoped to) and decides the same cases: every row of the policy table
(tests/support/tool_helpers.py) for every caller, with facts loaded once from a seeded store. All
engines must agree on every case before anything is timed.

What is timed is the decision alone, facts already in memory: tools.decide.decide() vs casbin's
`enforcer.enforce(sub, obj, act)` vs cedarpy's `is_authorized(request, policies, entities)` with a
pre-parsed PolicySet and a pre-parsed Entities handle per request (its fastest per-call form
measured here); cedarpy's `is_authorized_batch` over all cases is reported too.

    .venv/bin/python bench/gate.py [--seconds 1.0]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import casbin
import cedarpy
from casbin.model import Model

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from desk.portfolio.demo import seed  # noqa: E402
from spine.identity import STAFF_ROLE_TYPES, OccupancyKind  # noqa: E402
from spine.repo import Spine  # noqa: E402
from spine.store.sqlite import SqliteStore  # noqa: E402
from tests.support.tool_helpers import CALLERS, ROWS, add_table_people  # noqa: E402
from tools.caller import Caller, CallerFacts, load_caller  # noqa: E402
from tools.decide import POLICY, decide  # noqa: E402
from tools.facts import NO_TARGET, Target, load_target  # noqa: E402
from tools.gate import authorize  # noqa: E402
from tools.matrix import TOOL_ROLE_MATRIX, UNIT_SCOPES, Scope  # noqa: E402

OCCUPANT, PRIMARY, FINANCIAL = (UNIT_SCOPES[s] for s in (Scope.OWN_UNIT_OCCUPANT, Scope.OWN_UNIT_PRIMARY,
                                                        Scope.OWN_UNIT_FINANCIALLY_RESPONSIBLE))
UNIT_ATTR = {Scope.OWN_UNIT_OCCUPANT: "occupant_units", Scope.OWN_UNIT_PRIMARY: "primary_units",
             Scope.OWN_UNIT_FINANCIALLY_RESPONSIBLE: "financial_units"}


@dataclass
class Case:
    caller_name: str
    caller: Caller
    facts: CallerFacts
    tool: str
    args: dict
    target: Target


async def load_cases() -> tuple[Spine, list[Case]]:
    spine = Spine(SqliteStore(":memory:"))
    await seed(spine)
    await add_table_people(spine)
    callers = {n: await load_caller(spine, w.person_id, w.property_id, f"bench-{n}") for n, w in CALLERS.items()}
    cases = []
    for row in ROWS:
        for name, caller in callers.items():
            facts = await caller.facts(spine)
            policy = TOOL_ROLE_MATRIX.get(row.tool)
            target = await load_target(spine, facts, policy.scope, row.input) if policy else NO_TARGET
            cases.append(Case(name, caller, facts, row.tool, row.input, target))
    return spine, cases


# -- the same facts, flattened for the other engines -------------------------------------------
def _units(facts: CallerFacts, kinds: frozenset[OccupancyKind]) -> set[str]:
    return {u for u, held in facts.units.items() if not held.isdisjoint(kinds)}


def subject_attrs(facts: CallerFacts) -> dict:
    return {"person": facts.person_id or "", "property": facts.property_id, "org": facts.org_id or "",
            "roles": {str(r) for r in facts.role_types}, "occupant_units": _units(facts, OCCUPANT),
            "primary_units": _units(facts, PRIMARY), "financial_units": _units(facts, FINANCIAL),
            "vendor_pairs": {f"{v}|{p}" for v, props in facts.vendor_services.items() for p in props},
            "org_roles": {str(r) for r in facts.org_wide_roles},
            "property_roles": {f"{r}|{p}" for p, held in facts.property_roles.items() for r in held}}


def target_attrs(target: Target) -> dict:
    # key_<role>: "<role>|<property>", the key a staff role scoped to the target's property holds
    # (Cedar has no string concatenation, so the resource carries it, as context carries vendor pairs).
    return {"unit": target.unit_id or "", "property": target.property_id or "", "org": target.org_id or "",
            "vendor": target.wo_vendor_id or "", "subject": target.subject_person_id or "",
            **{f"key_{r}": f"{r}|{target.property_id or ''}" for r in STAFF_ROLE_TYPES}}


# -- pycasbin: the matrix as policy lines, the scopes as an ABAC matcher ---------------------------
CASBIN_MODEL = """
[request_definition]
r = sub, obj, act

[policy_definition]
p = role, act, scope

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.act == p.act && (p.role == "*" || p.role in r.sub.roles) && ( \
  p.scope == "none" || \
  (p.scope == "own-unit-occupant" && r.obj.unit in r.sub.occupant_units) || \
  (p.scope == "own-unit-primary" && r.obj.unit in r.sub.primary_units) || \
  (p.scope == "own-unit-financially-responsible" && r.obj.unit in r.sub.financial_units) || \
  (p.scope == "assigned-wo" && (r.obj.vendor + "|" + r.sub.property) in r.sub.vendor_pairs && \
     (r.obj.vendor + "|" + r.obj.property) in r.sub.vendor_pairs && r.obj.org == r.sub.org) || \
  (p.scope == "inbound-property" && r.obj.property == r.sub.property && r.obj.property != "") || \
  (p.scope == "self" && r.obj.subject == r.sub.person) || \
  (p.scope == "org-wide" && r.obj.org == r.sub.org && r.obj.org != "" && \
     (p.role in r.sub.org_roles || (p.role + "|" + r.obj.property) in r.sub.property_roles)))
"""


def casbin_enforcer() -> casbin.Enforcer:
    model = Model()
    model.load_model_from_text(CASBIN_MODEL)
    enforcer = casbin.Enforcer(model)
    for tool, policy in TOOL_ROLE_MATRIX.items():
        for role in (["*"] if policy.roles == "*" else sorted(policy.roles)):
            enforcer.add_policy(str(role), tool, str(policy.scope))
    return enforcer


# -- cedarpy: one permit per tool; derived vendor|property keys travel in the request context ------
def cedar_policy_text() -> str:
    scope_when = {
        Scope.NONE: [],
        Scope.ASSIGNED_WO: ["principal.vendor_pairs.contains(context.vendor_at_inbound)",
                            "principal.vendor_pairs.contains(context.vendor_at_wo_property)",
                            "resource.org == principal.org"],
        Scope.INBOUND_PROPERTY: ["resource.property == principal.property", 'resource.property != ""'],
        Scope.SELF: ["resource.subject == principal.person"],
        Scope.ORG_WIDE: ["resource.org == principal.org", 'resource.org != ""'],
        **{s: [f"principal.{attr}.contains(resource.unit)"] for s, attr in UNIT_ATTR.items()},
    }
    out = []

    def permit(tool: str, when: list[str]) -> None:
        clause = f"\nwhen {{ {' && '.join(when)} }}" if when else ""
        out.append(f'permit(principal, action == Action::"{tool}", resource){clause};')

    for tool, policy in TOOL_ROLE_MATRIX.items():
        if policy.scope == Scope.ORG_WIDE:
            for role in sorted(policy.roles):
                permit(tool, [f'principal.roles.contains("{role}")', *scope_when[policy.scope],
                              f'(principal.org_roles.contains("{role}") || '
                              f'principal.property_roles.contains(resource.key_{role}))'])
            continue
        when = [] if policy.roles == "*" else \
            [f"principal.roles.containsAny([{', '.join(json.dumps(str(r)) for r in sorted(policy.roles))}])"]
        permit(tool, when + scope_when[policy.scope])
    return "\n".join(out)


def cedar_inputs(cases: list[Case]) -> tuple[list[dict], list[dict], list[cedarpy.Entities]]:
    """Requests; all entities (for the batch call); and per request a pre-parsed handle holding only
    its principal and resource (the fastest per-call form measured here)."""
    entities: dict[str, dict] = {}
    requests, own = [], []
    for i, case in enumerate(cases):
        attrs = subject_attrs(case.facts)
        entities[f"User::{case.caller_name}"] = {"uid": {"type": "User", "id": case.caller_name}, "parents": [],
                                                 "attrs": {k: sorted(v) if isinstance(v, set) else v
                                                           for k, v in attrs.items()}}
        tgt = target_attrs(case.target)
        entities[f"Target::t{i}"] = {"uid": {"type": "Target", "id": f"t{i}"}, "parents": [], "attrs": tgt}
        requests.append({"principal": {"type": "User", "id": case.caller_name},
                         "action": {"type": "Action", "id": case.tool},
                         "resource": {"type": "Target", "id": f"t{i}"},
                         "context": {"vendor_at_inbound": f"{tgt['vendor']}|{attrs['property']}",
                                     "vendor_at_wo_property": f"{tgt['vendor']}|{tgt['property']}"}})
        pair = [entities[f"User::{case.caller_name}"], entities[f"Target::t{i}"]]
        own.append(cedarpy.Entities.from_json_str(json.dumps(pair)))
    return list(entities.values()), requests, own


# -- timing ------------------------------------------------------------------------------------
def rate(run_all: Callable[[], object], n: int, seconds: float) -> float:
    run_all()  # warm up
    done, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        run_all()
        done += n
    return done / elapsed


async def authorize_rate(spine: Spine, cases: list[Case], seconds: float) -> float:
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        for case in cases:
            await authorize(spine, case.caller, case.tool, case.args)
        done += len(cases)
    return done / (time.perf_counter() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per engine")
    seconds = parser.parse_args().seconds
    spine, cases = asyncio.run(load_cases())
    n = len(cases)

    ours = [(case.facts, case.tool, case.target) for case in cases]
    enforcer = casbin_enforcer()
    casbin_args = [(SimpleNamespace(**subject_attrs(c.facts)), SimpleNamespace(**target_attrs(c.target)), c.tool)
                   for c in cases]
    policy_set = cedarpy.PolicySet.from_str(cedar_policy_text())
    entity_list, requests, own_entities = cedar_inputs(cases)
    cedar_calls = list(zip(requests, own_entities, strict=True))
    entities = cedarpy.Entities.from_json_str(json.dumps(entity_list))

    expected = [decide(POLICY, *a).allowed for a in ours]
    via_casbin = [enforcer.enforce(*a) for a in casbin_args]
    via_cedar = [cedarpy.is_authorized(r, policy_set, e).allowed for r, e in cedar_calls]
    assert via_cedar == [r.allowed for r in cedarpy.is_authorized_batch(requests, policy_set, entities)]
    disagree = [(c.caller_name, c.tool, c.args, e, k, d) for c, e, k, d in zip(cases, expected, via_casbin, via_cedar, strict=True)
                if not e == k == d]
    if disagree:
        sys.exit(f"engines disagree on {len(disagree)} cases, first: {disagree[:3]}")
    print(f"{n} cases ({sum(expected)} allow, {n - sum(expected)} deny), all three engines agree on every one\n")

    figures = {
        "decide() (tools/decide.py)": rate(lambda: [decide(POLICY, *a) for a in ours], n, seconds),
        "casbin enforcer.enforce()": rate(lambda: [enforcer.enforce(*a) for a in casbin_args], n, seconds),
        "cedarpy is_authorized()": rate(lambda: [cedarpy.is_authorized(r, policy_set, e) for r, e in cedar_calls],
                                        n, seconds),
        "cedarpy is_authorized_batch()": rate(lambda: cedarpy.is_authorized_batch(requests, policy_set, entities),
                                              n, seconds),
    }
    ours_rate = figures["decide() (tools/decide.py)"]
    print(f"{'engine':34} {'decisions/s':>14} {'decide() is':>14}")
    for name, value in figures.items():
        ratio = "" if value is ours_rate else f"{ours_rate / value:,.1f}x faster"
        print(f"{name:34} {value:>14,.0f} {ratio:>14}")
    best_cedar = max(figures["cedarpy is_authorized()"], figures["cedarpy is_authorized_batch()"])
    print(f"\nratios: decide() / casbin = {ours_rate / figures['casbin enforcer.enforce()']:,.1f}x, "
          f"decide() / cedarpy (its faster form) = {ours_rate / best_cedar:,.1f}x (target: >= 20x both)")
    full = asyncio.run(authorize_rate(spine, cases, seconds))
    print(f"\nfor scale, authorize() end to end (caller facts cached, target read from SQLite per call): "
          f"{full:,.0f}/s")


if __name__ == "__main__":
    main()
