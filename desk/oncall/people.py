"""Who may stand on a property's on-call ladder (issue 40 item 10): a staff member or a vendor
contact of the property (a viewer reads only, so not a viewer), alive, not merged away, with the role active and in force there (a
vendor contact's vendor active and serving the property). A prospect or a tenant is never paged:
their ACK would take an emergency. `gateway oncall set` and `oncall.csv` both ask `oncall_refusal`.

`Planned` overlays what an import planned in this run on the store, so a dry run (or --strict's
check, which applies nothing) judges a staff row and an on-call row of the same import together."""
from __future__ import annotations

from dataclasses import dataclass, field

from spine.identity import STAFF_ROLE_TYPES, Person, PersonRole, PersonRoleType
from spine.oncall import OnCallPlan
from spine.property import Property, Vendor
from spine.repo import Spine
from spine.roles import role_applies_at


@dataclass
class Planned:
    """An import's planned records that bear on on-call eligibility (few: not residents)."""

    deceased: dict[str, bool] = field(default_factory=dict)  # person id -> deceased, for every planned person
    roles: dict[str, dict[str, PersonRole]] = field(default_factory=dict)  # person id -> role id -> staff/vendor role
    vendors: dict[str, Vendor] = field(default_factory=dict)
    properties: dict[str, Property] = field(default_factory=dict)


async def oncall_refusal(spine: Spine, person_id: str, property_id: str, planned: Planned | None = None) -> str | None:
    """Why the person may not be on the property's ladder, or None when they may."""
    planned = planned or Planned()
    person = await spine.get_person(person_id)
    if person is None and person_id not in planned.deceased:
        return f"no such person {person_id!r}"
    if planned.deceased.get(person_id, person.deceased if person else False):
        return f"{person_id} is deceased"
    if person is not None and (refused := _person_refusal(person)) is not None:
        return refused
    prop = planned.properties.get(property_id) or await spine.get_property(property_id)
    if prop is None:
        return f"no property {property_id!r}"
    if await _reaches_with_a_role(spine, person_id, prop, planned):
        return None
    return f"{person_id} is neither staff nor a vendor contact of {property_id}"


async def may_be_on_call(spine: Spine, person: Person, roles: list[PersonRole], prop: Property) -> bool:
    """`oncall_refusal`'s rule for a person, their active roles (`Spine.roles_of`) and a property
    already read: a transfer reads everyone on its plan and their roles at once, a caller waiting."""
    if person.deceased or _person_refusal(person) is not None:
        return False
    return await _reaches_any(spine, roles, prop, Planned())


def _person_refusal(person: Person) -> str | None:
    if person.merged_into_person_id or person.category is not None:
        return f"{person.id} is merged into another person or marked {person.category or 'merged'}"
    return None


async def _reaches_with_a_role(spine: Spine, person_id: str, prop: Property, planned: Planned) -> bool:
    roles = {r.id: r for r in await spine.roles_of(person_id)} | planned.roles.get(person_id, {})
    return await _reaches_any(spine, list(roles.values()), prop, planned)


async def _reaches_any(spine: Spine, roles: list[PersonRole], prop: Property, planned: Planned) -> bool:
    for role in roles:
        if role.active and await _reaches(spine, role, prop, planned):
            return True
    return False


async def _reaches(spine: Spine, role: PersonRole, prop: Property, planned: Planned) -> bool:
    if role.role_type in STAFF_ROLE_TYPES - {PersonRoleType.VIEWER}:  # a viewer never acts: an ACK would
        return await role_applies_at(spine, role, prop)  # staff: org and property only, no store read
    if role.role_type != PersonRoleType.VENDOR_CONTACT or not role.scope.vendor_id:
        return False
    vendor = planned.vendors.get(role.scope.vendor_id) or await spine.get_vendor(role.scope.vendor_id)
    return vendor is not None and vendor.active and prop.id in vendor.services_property_ids


async def eligible_plan(spine: Spine, plan: OnCallPlan) -> OnCallPlan | None:
    """The plan a new page follows: its levels less anyone who may no longer be on call there (a
    plan set before their role ended, their vendor stopped serving, they died), empty levels
    dropped; None when nobody is left (the page then pages nobody, as with no plan)."""
    levels = [[p for p in level if await oncall_refusal(spine, p, plan.property_id) is None] for level in plan.levels]
    kept = [level for level in levels if level]
    return plan.model_copy(update={"levels": kept}) if kept else None
