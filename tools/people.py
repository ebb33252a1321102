"""Who is who in an organization, for staff lookups (pm_lookup_person).

Describing a Person's roles is data for a PM, not an authorization check, so it lives here,
outside the handlers (which never look at roles).
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from spine import keys
from spine.context import Channel
from spine.identity import PersonRole, PersonRoleType
from spine.participants import resolve_person
from spine.phone import InvalidPhoneNumber
from spine.records import last4
from spine.repo import Spine


class PersonMatch(BaseModel):
    person_id: str
    name: str
    phone_last4: str | None = None
    deceased: bool = False
    roles: list[str] = Field(default_factory=list)  # "tenant of unit 204 (primary)", "pm", ...
    units: list[str] = Field(default_factory=list)  # unit numbers the person is a tenant of


async def _roles_in_org(spine: Spine, org_id: str,
                        within: frozenset[str] | None) -> tuple[dict[str, list[PersonRole]], dict[str, str]]:
    """Every active role bound to the org's properties (those in `within`, if given), their units
    and vendors, by person; and unit numbers."""
    props = [p for p in await spine.list_properties()
             if p.org_id == org_id and (within is None or p.id in within)]
    index_keys = [keys.org_roles(org_id)] + [keys.property_roles(p.id) for p in props]
    numbers: dict[str, str] = {}
    for prop in props:
        for unit in await spine.units_of(prop.id):
            numbers[unit.id] = unit.number
            index_keys.append(keys.unit_roles(unit.id))
    prop_ids = {p.id for p in props}
    index_keys += [keys.vendor_roles(v.id) for v in await spine.list_vendors() if prop_ids & set(v.services_property_ids)]
    found: dict[str, list[PersonRole]] = {}
    for key in index_keys:
        for role in await spine.roles_scoped_to(key):
            if role.scope.property_id and role.scope.property_id not in prop_ids:
                continue  # a staff role limited to a property outside the lookup's reach
            found.setdefault(role.person_id, []).append(role)
    return found, numbers


async def _describe(spine: Spine, role: PersonRole, numbers: dict[str, str]) -> str:
    scope = role.scope
    if role.role_type == PersonRoleType.TENANT and scope.unit_id:
        kind = f" ({scope.occupancy})" if scope.occupancy else ""
        return f"tenant of unit {numbers.get(scope.unit_id, scope.unit_id)}{kind}"
    if role.role_type == PersonRoleType.VENDOR_CONTACT and scope.vendor_id:
        vendor = await spine.get_vendor(scope.vendor_id)
        return f"vendor contact for {vendor.name if vendor else scope.vendor_id}"
    return str(role.role_type)


async def lookup_people(spine: Spine, org_id: str, *, phone: str | None, name: str | None,
                        unit: str | None = None, within: frozenset[str] | None = None,
                        limit: int = 10) -> list[PersonMatch]:
    """People with a role in the org (at the properties `within`, if given) matching the phone
    (exact, after normalizing), the name (case-insensitive substring) or tenancy of a unit number.
    People outside the org are never returned."""
    by_person, numbers = await _roles_in_org(spine, org_id, within)
    wanted: list[str] = []
    if unit and not (phone or name):
        wanted = sorted(p for p, roles in by_person.items()
                        if any(numbers.get(r.scope.unit_id or "") == unit.strip().lstrip("#") for r in roles
                               if r.role_type == PersonRoleType.TENANT))
    elif phone:
        try:
            person = await resolve_person(spine, Channel.SMS, phone)
        except InvalidPhoneNumber:
            person = None
        wanted = [person.id] if person and person.id in by_person else []
    else:
        needle = (name or "").strip().lower()
        for person_id in sorted(by_person):
            person = await spine.get_person(person_id)
            if person and needle and needle in person.display_name.lower():
                wanted.append(person_id)
    matches = []
    for person_id in wanted[:limit]:
        person = await spine.get_person(person_id)
        if person is None:
            continue
        roles = [await _describe(spine, r, numbers) for r in by_person[person_id]]
        phones = person.phones()
        units = sorted({numbers[r.scope.unit_id] for r in by_person[person_id]
                        if r.role_type == PersonRoleType.TENANT and r.scope.unit_id in numbers})
        matches.append(PersonMatch(person_id=person.id, name=person.display_name, deceased=person.deceased,
                                   phone_last4=last4(phones[0]) if phones else None, roles=sorted(roles), units=units))
    return matches
