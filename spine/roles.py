"""Active roles of a Person at an inbound property (the ADR's resolveActiveRoles)."""
from __future__ import annotations

from spine.identity import PersonRole, PersonRoleType
from spine.property import Property
from spine.repo import Spine


async def role_applies_at(spine: Spine, role: PersonRole, prop: Property) -> bool:
    """Whether one role row is in force for an inbound to `prop`.

    Tenant roles apply at their unit's property; prospects at their property; staff roles
    across their org, or at the one property they name while it is still in their org (a
    property sold to another org leaves its old org's staff behind: issue 40 item 4); vendor
    contacts wherever their vendor services the property, in any org (vendor roles are
    vendor-scoped, not org-scoped).
    """
    scope = role.scope
    match role.role_type:
        case PersonRoleType.VENDOR_CONTACT:
            vendor = await spine.get_vendor(scope.vendor_id) if scope.vendor_id else None
            return vendor is not None and vendor.active and prop.id in vendor.services_property_ids
        case PersonRoleType.TENANT:
            if scope.unit_id:
                unit = await spine.get_unit(scope.unit_id)
                return unit is not None and unit.property_id == prop.id
            return scope.property_id == prop.id
        case PersonRoleType.PROSPECT:
            return scope.property_id == prop.id
        case PersonRoleType.PLATFORM_ADMIN:
            return True
        case _:
            if scope.property_id:
                in_org = scope.org_id is None or scope.org_id == prop.org_id
                return scope.property_id == prop.id and in_org
            return scope.org_id == prop.org_id


async def resolve_active_roles(spine: Spine, person_id: str, property_id: str) -> list[PersonRole]:
    prop = await spine.get_property(property_id)
    if prop is None:
        return []
    return [r for r in await spine.roles_of(person_id) if await role_applies_at(spine, r, prop)]
