"""Authority: who a Person is at one property, derived from the store once, for the prompt and the gate.

One derivation reads the Person once and their role rows once (reference data, such as the
property, its units and vendors, comes from the per-process reference cache) and turns them into
the facts every decision needs (CallerFacts): the Opening builds its prompt and tool list from
them, the gate decides every call on them. Nothing here is ever taken from a caller's claim: the
only inputs are a Person.id and a property id. The DispatcherActor derives and keeps it; the
PersonActor asks it through an AuthoritySource, so a turn never reads the Person or roles twice.
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from spine.identity import STAFF_ROLE_TYPES, OccupancyKind, Person, PersonRole, PersonRoleType, carries_authority
from spine.repo import Spine
from spine.roles import role_applies_at

# The staleness bound of everything derived from the Person and their roles: a role added or
# removed in the store reaches the next turn (its prompt, its tool list, the dispatcher's gate)
# at most this many seconds later. Writes made by a turn's own tools are seen at once.
STALE_AFTER_S = 5.0


class CallerFacts(BaseModel):
    """What a decision needs to know about the person at the property: their authoritative roles
    (none for a Person who carries no authority) and what those roles reach."""

    model_config = ConfigDict(frozen=True)

    person_id: str | None
    property_id: str
    org_id: str | None  # the inbound property's org; None if the property does not exist
    role_types: frozenset[PersonRoleType] = frozenset()
    units: dict[str, frozenset[OccupancyKind]] = Field(default_factory=dict)  # unit id -> kinds held
    unit_numbers: dict[str, str] = Field(default_factory=dict)  # unit id -> "204"
    vendor_services: dict[str, frozenset[str]] = Field(default_factory=dict)  # vendor id -> property ids
    # Where each staff role reaches: a role limited to a property acts on that property's records
    # only; an org-wide one on anything in the inbound property's org.
    org_wide_roles: frozenset[PersonRoleType] = frozenset()
    property_roles: dict[str, frozenset[PersonRoleType]] = Field(default_factory=dict)  # property id -> roles

    @property
    def who(self) -> str:
        return self.person_id or "an unidentified caller"

    @property
    def records_visible(self) -> bool:
        """Whether person-specific records (the name on file, personContext, open work orders) may
        go into this person's prompt: only with an active role at the inbound property. A
        deceased, spam or merged-away Person, or one calling another property's line, gets none."""
        return self.person_id is not None and bool(self.role_types)

    def reach(self, roles: frozenset[PersonRoleType]) -> frozenset[str] | None:
        """The properties these role types let the caller act on: None for the whole org."""
        if not roles.isdisjoint(self.org_wide_roles):
            return None
        return frozenset(p for p, held in self.property_roles.items() if not roles.isdisjoint(held))


class Authority(BaseModel):
    person_id: str | None
    property_id: str
    org_id: str | None  # the inbound property's org; None if the property is unknown
    person: Person | None = None
    roles: list[PersonRole] = Field(default_factory=list)  # role rows in force at the property
    all_roles: list[PersonRole] = Field(default_factory=list)  # every active role row, any property
    facts: CallerFacts  # what the authoritative roles reach (none when the Person carries no authority)
    derived_at: float = 0.0  # wall-clock seconds
    store_reads: dict[str, int] = Field(default_factory=dict)  # what deriving it cost (for the trace)

    @property
    def authoritative_roles(self) -> list[PersonRole]:
        return self.roles if carries_authority(self.person) else []

    @property
    def roles_elsewhere(self) -> bool:
        return bool(self.all_roles)

    def same_as(self, other: Authority) -> bool:
        """Whether anything a turn acts on changed (the derivation time and its cost aside)."""
        fields = ("person_id", "property_id", "org_id", "person", "roles", "all_roles")
        return all(getattr(self, f) == getattr(other, f) for f in fields)


@runtime_checkable
class AuthoritySource(Protocol):
    """Where a turn gets a Person's authority: in Ray the DispatcherActor's own derivation (so the
    Opening and the gate decide on one read), in tests an in-process Dispatcher."""

    async def authority(self, person_id: str | None, property_id: str, *, fresh: bool = False) -> Authority:
        """The derivation for (person, property), at most STALE_AFTER_S old, or new with `fresh`."""
        ...


async def derive_authority(spine: Spine, person_id: str | None, property_id: str, now: float) -> Authority:
    prop = await spine.get_property(property_id)
    org_id = prop.org_id if prop else None
    person, all_roles, roles = None, [], []
    if person_id is not None:
        person = await spine.get_person(person_id)
        all_roles = await spine.roles_of(person_id) if person is not None else []
        roles = [r for r in all_roles if prop is not None and await role_applies_at(spine, r, prop)]
    held = roles if carries_authority(person) else []
    facts = await _facts(spine, person_id, property_id, org_id, held)
    return Authority(person_id=person_id, property_id=property_id, org_id=org_id, person=person, roles=roles,
                     all_roles=all_roles, facts=facts, derived_at=now)


async def _facts(spine: Spine, person_id: str | None, property_id: str, org_id: str | None,
                 roles: list[PersonRole]) -> CallerFacts:
    units: dict[str, set[OccupancyKind]] = {}
    numbers: dict[str, str] = {}
    vendors: dict[str, frozenset[str]] = {}
    org_wide: set[PersonRoleType] = set()
    by_property: dict[str, set[PersonRoleType]] = {}
    for role in roles:
        scope = role.scope
        if role.role_type in STAFF_ROLE_TYPES:
            if scope.property_id:
                by_property.setdefault(scope.property_id, set()).add(role.role_type)
            else:
                org_wide.add(role.role_type)
        elif role.role_type == PersonRoleType.TENANT and scope.unit_id:
            # A tenant row without an occupancy kind gets the least authority an occupant has.
            units.setdefault(scope.unit_id, set()).add(scope.occupancy or OccupancyKind.ROOMMATE)
            unit = await spine.get_unit(scope.unit_id)  # reference data: cached
            numbers[scope.unit_id] = unit.number if unit else scope.unit_id
        elif role.role_type == PersonRoleType.VENDOR_CONTACT and scope.vendor_id:
            vendor = await spine.get_vendor(scope.vendor_id)
            if vendor is not None:
                vendors[vendor.id] = frozenset(vendor.services_property_ids)
    return CallerFacts(person_id=person_id, property_id=property_id, org_id=org_id,
                       role_types=frozenset(r.role_type for r in roles),
                       units={u: frozenset(k) for u, k in units.items()}, unit_numbers=numbers,
                       vendor_services=vendors, org_wide_roles=frozenset(org_wide),
                       property_roles={p: frozenset(r) for p, r in by_property.items()})
