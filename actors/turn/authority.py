"""Authority: who a Person is at one property, as the DispatcherActor derives it from the store.

One derivation reads the Person once and their role rows once (reference data, such as the
property, its units and vendors, comes from the per-process reference cache). The DispatcherActor
derives it itself and keeps it for at most STALE_AFTER_S; the PersonActor asks the dispatcher for
it when its Opening is due a re-check, so one store read serves both and a turn never reads the
Person or the roles twice. Nothing here is ever taken from a caller's claim: the only inputs are
a Person.id and a property id.
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from spine.context import Channel
from spine.identity import Person, PersonRole
from spine.repo import Spine
from spine.roles import role_applies_at
from tools.caller import Caller

# The staleness bound of everything derived from the Person and their roles: a role added or
# removed in the store reaches the next turn (its prompt, its tool list, the dispatcher's gate)
# at most this many seconds later. Writes made by a turn's own tools are seen at once.
STALE_AFTER_S = 5.0


class Authority(BaseModel):
    person_id: str | None
    property_id: str
    org_id: str | None  # the inbound property's org; None if the property is unknown
    person: Person | None = None
    roles: list[PersonRole] = Field(default_factory=list)  # role rows in force at the property
    all_roles: list[PersonRole] = Field(default_factory=list)  # every active role row, any property
    derived_at: float = 0.0  # wall-clock seconds
    store_reads: dict[str, int] = Field(default_factory=dict)  # what deriving it cost (for the trace)

    @property
    def usable(self) -> bool:
        """A deceased, merged-away or spam / wrong-number Person carries no authority."""
        p = self.person
        return p is not None and not p.deceased and not p.merged_into_person_id and p.category is None

    @property
    def authoritative_roles(self) -> list[PersonRole]:
        return self.roles if self.usable else []

    @property
    def roles_elsewhere(self) -> bool:
        return bool(self.all_roles)

    def same_as(self, other: Authority) -> bool:
        """Whether anything a turn acts on changed (the derivation time and its cost aside)."""
        fields = ("person_id", "property_id", "org_id", "person", "roles", "all_roles")
        return all(getattr(self, f) == getattr(other, f) for f in fields)

    def caller(self, interaction_id: str, channel: Channel = Channel.SMS, impersonated_by: str | None = None) -> Caller:
        """The tool layer's Caller for this authority (roles marked as read from the store, so
        the gate uses them without asking the store again); `impersonated_by` names the staff
        Person asking as this one, whose authority the gate derives and applies as well."""
        return Caller.from_store(self.person_id, self.property_id, self.org_id, self.authoritative_roles,
                                 interaction_id, channel, impersonated_by)


async def derive_authority(spine: Spine, person_id: str | None, property_id: str, now: float) -> Authority:
    prop = await spine.get_property(property_id)
    org_id = prop.org_id if prop else None
    if person_id is None:
        return Authority(person_id=None, property_id=property_id, org_id=org_id, derived_at=now)
    person = await spine.get_person(person_id)
    all_roles = await spine.roles_of(person_id) if person is not None else []
    roles = [r for r in all_roles if prop is not None and await role_applies_at(spine, r, prop)]
    return Authority(person_id=person_id, property_id=property_id, org_id=org_id, person=person, roles=roles,
                     all_roles=all_roles, derived_at=now)
