"""The target a gate decision needs, loaded from the store before the decision is made.

Loading is async and does I/O; deciding (tools/decide.py) is pure. The caller's side, CallerFacts,
comes with their Authority (tools.authority: one derivation per interaction and staleness bound);
a Target is loaded per call, for the unit or work order it names.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from spine.repo import Spine
from tools.authority import CallerFacts
from tools.ids import display_id, work_order_key
from tools.matrix import UNIT_SCOPES, Scope


@dataclass(frozen=True, slots=True)
class Target:
    """What a call acts on, as the store knows it (never as the model claimed it)."""

    property_id: str | None = None
    org_id: str | None = None
    unit_id: str | None = None
    unit_number: str | None = None
    work_order_id: str | None = None  # store id, wo_7
    work_order: str | None = None  # display id, WO-7
    wo_vendor_id: str | None = None
    subject_person_id: str | None = None
    named: str | None = None  # how the call named it ("WO-42", "unit 312"), for a refusal that says no more
    missing: str | None = None  # why the target could not be resolved
    within: frozenset[str] | None = None  # an org-wide listing's properties, as the caller's roles reach


NO_TARGET = Target()


async def load_target(spine: Spine, facts: CallerFacts, scope: Scope, args: dict[str, Any]) -> Target:
    """Resolve the unit / work order / property a call names, for the checks its scope needs."""
    if facts.org_id is None:
        return Target(missing=f"property {facts.property_id} is not known")
    if scope in UNIT_SCOPES:
        return await _unit_target(spine, facts, args)
    if scope == Scope.ASSIGNED_WO:
        return await _work_order_target(spine, args.get("work_order_id"))
    if scope == Scope.ORG_WIDE:
        return await _org_target(spine, facts, args)
    if scope == Scope.INBOUND_PROPERTY:
        return Target(property_id=facts.property_id, org_id=facts.org_id)
    if scope == Scope.SELF:
        return Target(property_id=facts.property_id, org_id=facts.org_id, subject_person_id=facts.person_id)
    return NO_TARGET


async def _unit_by_number(spine: Spine, property_id: str, number: str) -> tuple[str, str] | None:
    wanted = str(number).strip().lstrip("#").lower()
    for unit in await spine.units_of(property_id):
        if unit.number.lower() == wanted:
            return unit.id, unit.number
    return None


async def _unit_target(spine: Spine, facts: CallerFacts, args: dict[str, Any]) -> Target:
    if args.get("work_order_id"):
        wo_target = await _work_order_target(spine, args["work_order_id"])
        if wo_target.missing:
            return wo_target
        if wo_target.unit_id is None:
            return Target(named=wo_target.named, missing=f"{wo_target.work_order} is not tied to a unit")
        return wo_target
    if args.get("unit"):
        named = _unit_name(args["unit"])
        found = await _unit_by_number(spine, facts.property_id, args["unit"])
        if found is None:
            return Target(named=named, missing=f"unit {args['unit']} not found at {facts.property_id}")
        return Target(property_id=facts.property_id, org_id=facts.org_id, unit_id=found[0], unit_number=found[1],
                      named=named)
    if len(facts.units) == 1:
        unit_id = next(iter(facts.units))
        return Target(property_id=facts.property_id, org_id=facts.org_id, unit_id=unit_id,
                      unit_number=facts.unit_numbers.get(unit_id))
    if not facts.units:
        return Target(missing=f"{facts.who} occupies no unit at {facts.property_id}; name the unit")
    held = ", ".join(sorted(facts.unit_numbers.values()))
    return Target(missing=f"{facts.who} occupies several units here ({held}); name one with `unit`")


async def _work_order_target(spine: Spine, spelled: str | None) -> Target:
    if not spelled:
        return Target(missing="no work_order_id given")
    try:
        key = work_order_key(spelled)
    except ValueError as exc:
        return Target(missing=str(exc))
    named = display_id(key)
    wo = await spine.get_work_order(key)
    if wo is None:
        return Target(named=named, missing=f"work order {named} not found")
    prop = await spine.get_property(wo.property_id)
    unit = await spine.get_unit(wo.unit_id) if wo.unit_id else None
    return Target(property_id=wo.property_id, org_id=prop.org_id if prop else None, unit_id=wo.unit_id,
                  unit_number=unit.number if unit else None, work_order_id=wo.id, work_order=wo.display_id,
                  wo_vendor_id=wo.assigned_vendor_id, named=named)


async def _org_target(spine: Spine, facts: CallerFacts, args: dict[str, Any]) -> Target:
    if args.get("work_order_id"):
        return await _work_order_target(spine, args["work_order_id"])
    property_id = args.get("property_id") or facts.property_id
    prop = await spine.get_property(property_id)
    if prop is None:
        return Target(named=f"property {property_id}", missing=f"property {property_id} not found")
    if args.get("unit"):
        named = _unit_name(args["unit"])
        found = await _unit_by_number(spine, prop.id, args["unit"])
        if found is None:
            return Target(named=named, missing=f"unit {args['unit']} not found at {prop.id}")
        return Target(property_id=prop.id, org_id=prop.org_id, unit_id=found[0], unit_number=found[1], named=named)
    return Target(property_id=prop.id, org_id=prop.org_id, named=f"property {prop.id}")


def _unit_name(spelled: Any) -> str:
    return f"unit {str(spelled).strip().lstrip('#')[:16]}"
