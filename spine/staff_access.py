"""Whether a staff member may still act at a property: the check a takeover is held to for as long
as it lasts (issue 40 item 5). A takeover outlives nothing: when its taker's staff role ends, the
role no longer reaches the property (a property moved to another org, say), the taker is only a
viewer there, or the taker is deceased or merged away, the takeover ends and Clara answers again.

The same rule as the console's `AdminScope.may_act` (desk.console.admin_scope), for one (person, property)
without deriving the whole scope: a staff role in force at the property (`role_applies_at`) other
than viewer, held by a Person who carries authority."""
from __future__ import annotations

from spine.admin_access import OPERATOR
from spine.identity import STAFF_ROLE_TYPES, PersonRoleType, carries_authority
from spine.repo import Spine
from spine.roles import role_applies_at


async def staff_may_act(spine: Spine, staff_person_id: str, property_id: str) -> bool:
    if staff_person_id == OPERATOR:  # the operator's token reaches every property, and no role ends
        return True
    person = await spine.get_person(staff_person_id)
    if not carries_authority(person):
        return False
    prop = await spine.get_property(property_id)
    if prop is None:
        return False
    for role in await spine.roles_of(staff_person_id):  # active roles only
        acting = role.role_type in STAFF_ROLE_TYPES and role.role_type != PersonRoleType.VIEWER
        if acting and await role_applies_at(spine, role, prop):
            return True
    return False
