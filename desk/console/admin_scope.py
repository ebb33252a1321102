"""AdminScope: what a signed-in admin identity may see and do on the /admin surface.

The properties a staff Person may see are where their staff roles are in force, by the same rule
the tool gate derives a caller's authority with (`spine.roles.role_applies_at`): an org-wide role
covers its org's properties, a role limited to a property covers that property. The operator
(GATEWAY_ADMIN_TOKEN, not a Person) sees everything. A Person who cannot hold authority (deceased,
merged away, spam) sees nothing. Every admin read is bounded by `sees` (a record's property) or
`sees_person` (a Person's roles); acting as someone (Ask Clara) needs `covers_person` (all they
reach is in scope); a `viewer` reads but never acts (`may_act`).

Derived from the store on every request, never from what the request says.
"""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from spine.admin_access import OPERATOR
from spine.identity import STAFF_ROLE_TYPES, PersonRoleType, carries_authority
from spine.repo import Spine
from spine.roles import role_applies_at


class AdminScope(BaseModel):
    model_config = ConfigDict(frozen=True)

    identity: str  # a staff Person's id, or OPERATOR
    everything: bool = False  # the operator: every property, and records tied to none
    roles_at: dict[str, frozenset[PersonRoleType]] = {}  # property id -> staff role types in force there

    @property
    def property_ids(self) -> frozenset[str] | None:
        """The properties in scope; None for everything (the operator)."""
        return None if self.everything else frozenset(self.roles_at)

    def sees(self, property_id: str | None) -> bool:
        """Whether a record of this property may be shown. A record tied to no property (an
        unknown sender's event, say) is the operator's alone."""
        return self.everything or (property_id is not None and property_id in self.roles_at)

    def may_act(self, property_id: str | None) -> bool:
        """Whether this identity may change things at the property: any staff role there but viewer."""
        if self.everything:
            return True
        held = self.roles_at.get(property_id or "", frozenset())
        return bool(held - {PersonRoleType.VIEWER})

    async def sees_person(self, spine: Spine, person_id: str | None) -> bool:
        """Whether a Person is within scope: they hold a role in force at a property in scope (an
        unknown caller, with no Person, is the operator's alone)."""
        if self.everything:
            return True
        if person_id is None or not self.roles_at:
            return False
        roles = await spine.roles_of(person_id)
        for property_id in sorted(self.roles_at) if roles else []:
            prop = await spine.get_property(property_id)  # reference data: cached
            if prop is not None and any([await role_applies_at(spine, r, prop) for r in roles]):
                return True
        return False

    async def covers_person(self, spine: Spine, person_id: str) -> bool:
        """Whether everything a Person's roles reach is within scope, so that acting as them
        (Ask Clara) shows nothing of a property outside it: their context, work orders and
        lookups are all of properties in scope. A Person with no role reaches nothing."""
        if self.everything:
            return True
        reach = await person_reach(spine, person_id)
        return bool(reach) and reach <= frozenset(self.roles_at)


async def person_reach(spine: Spine, person_id: str) -> frozenset[str]:
    """The properties where any of the Person's active roles is in force (role_applies_at): the one
    rule of which properties a person reaches, the tool gate's (a Person who carries no authority
    reaches none). The console, Ask Clara and staff scope read it; tests hold it equal to the gate."""
    if not carries_authority(await spine.get_person(person_id)):
        return frozenset()
    roles = await spine.roles_of(person_id)
    if not roles:
        return frozenset()
    return frozenset([prop.id for prop in await spine.list_properties()
                      if any([await role_applies_at(spine, r, prop) for r in roles])])


async def admin_scope(spine: Spine, identity: str) -> AdminScope:
    """The scope of a signed-in identity, derived from the store."""
    if identity == OPERATOR:
        return AdminScope(identity=identity, everything=True)
    if not carries_authority(await spine.get_person(identity)):
        return AdminScope(identity=identity)
    staff = [r for r in await spine.roles_of(identity) if r.role_type in STAFF_ROLE_TYPES]
    roles_at: dict[str, frozenset[PersonRoleType]] = {}
    for prop in await spine.list_properties() if staff else []:
        held = frozenset([r.role_type for r in staff if await role_applies_at(spine, r, prop)])
        if held:
            roles_at[prop.id] = held
    return AdminScope(identity=identity, roles_at=roles_at)


async def is_staff(spine: Spine, person_id: str) -> bool:
    """A Person who may hold admin access: alive, not merged away, with an active staff role."""
    person = await spine.get_person(person_id)
    if not carries_authority(person):
        return False
    return any(r.role_type in STAFF_ROLE_TYPES for r in await spine.roles_of(person_id))
