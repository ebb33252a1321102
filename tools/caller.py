"""Caller: who is calling a tool, re-derived from the store, never taken from a claim."""
from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import BaseModel, Field, PrivateAttr

from spine.admin_access import OPERATOR
from spine.context import Channel
from spine.identity import OccupancyKind, PersonRole, PersonRoleType
from spine.repo import Spine
from spine.roles import resolve_active_roles


@dataclass(frozen=True, slots=True)
class StoreRoles:
    """The roles the store gave one Person at one property, as read in this process: the
    authority a Caller was built from. Never serialized (a Caller that crossed a process
    boundary carries none and is re-derived), never edited (a Caller whose `roles` list was
    changed still has these)."""

    person_id: str | None
    property_id: str
    roles: tuple[PersonRole, ...]


@dataclass(frozen=True, slots=True)
class CallerFacts:
    """What the gate needs to know about a caller, loaded from the store (tools.facts.load_facts)."""

    person_id: str | None
    property_id: str
    org_id: str | None  # the inbound property's org; None if the property does not exist
    role_types: frozenset[PersonRoleType] = frozenset()
    units: dict[str, frozenset[OccupancyKind]] = field(default_factory=dict)  # unit id -> kinds held
    unit_numbers: dict[str, str] = field(default_factory=dict)  # unit id -> "204"
    vendor_services: dict[str, frozenset[str]] = field(default_factory=dict)  # vendor id -> property ids
    # Where each staff role reaches: a role limited to a property acts on that property's records
    # only; an org-wide one on anything in the inbound property's org.
    org_wide_roles: frozenset[PersonRoleType] = frozenset()
    property_roles: dict[str, frozenset[PersonRoleType]] = field(default_factory=dict)  # property id -> roles

    @property
    def who(self) -> str:
        return self.person_id or "an unidentified caller"

    def reach(self, roles: frozenset[PersonRoleType]) -> frozenset[str] | None:
        """The properties these role types let the caller act on: None for the whole org."""
        if not roles.isdisjoint(self.org_wide_roles):
            return None
        return frozenset(p for p, held in self.property_roles.items() if not roles.isdisjoint(held))


class Caller(BaseModel):
    person_id: str | None
    property_id: str
    org_id: str | None
    roles: list[PersonRole] = Field(default_factory=list)  # active at property_id
    interaction_id: str
    channel: Channel = Channel.SMS
    # Ask Clara as someone else: the signed-in staff Person's id (or OPERATOR). Like person_id it
    # names who, never what they may do: the gate derives this Person's authority from the store
    # too and allows only what both may do (tools/gate.py); the operator adds no cap.
    impersonated_by: str | None = None

    # Both private: never serialized, so a Caller that crossed a process boundary is re-derived
    # from the store, not trusted. `_store` is the authority it was built from (from_store);
    # `_facts` the gate's facts, loaded once per interaction (remember_facts).
    _store: StoreRoles | None = PrivateAttr(default=None)
    _facts: CallerFacts | None = PrivateAttr(default=None)
    _impersonator: Caller | None = PrivateAttr(default=None)

    @classmethod
    def from_store(cls, person_id: str | None, property_id: str, org_id: str | None, roles: list[PersonRole],
                   interaction_id: str, channel: Channel = Channel.SMS, impersonated_by: str | None = None) -> Caller:
        """A Caller whose roles are what the store just said: the gate uses them without asking
        the store again."""
        caller = cls(person_id=person_id, property_id=property_id, org_id=org_id, roles=list(roles),
                     interaction_id=interaction_id, channel=channel, impersonated_by=impersonated_by)
        caller._store = StoreRoles(person_id, property_id, tuple(roles))
        return caller

    def roles_from_store(self) -> list[PersonRole] | None:
        """The roles the store gave this Person at this property when the Caller was built here
        (whatever `roles` says now); None when there is no such record and the gate must ask."""
        store = self._store
        if store is not None and (store.person_id, store.property_id) == (self.person_id, self.property_id):
            return list(store.roles)
        return None

    def known_facts(self) -> CallerFacts | None:
        """The gate's facts loaded for this Caller, while they are still about this Person here."""
        facts = self._facts
        if facts is not None and (facts.person_id, facts.property_id) == (self.person_id, self.property_id):
            return facts
        return None

    def remember_facts(self, facts: CallerFacts) -> None:
        self._facts = facts

    def impersonator(self) -> Caller | None:
        """The impersonating staff Person as a caller at the same property, in the same
        interaction: its roles are not given, so the gate derives them from the store (once per
        interaction: the Caller is kept here). None when nobody impersonates, or the operator does."""
        by = self.impersonated_by
        if by is None or by == OPERATOR or by == self.person_id:
            return None
        kept = self._impersonator
        if kept is None or (kept.person_id, kept.property_id, kept.interaction_id) != (by, self.property_id,
                                                                                      self.interaction_id):
            kept = self._impersonator = Caller(person_id=by, property_id=self.property_id, org_id=self.org_id,
                                               interaction_id=self.interaction_id, channel=self.channel)
        return kept


async def authoritative_roles(spine: Spine, person_id: str | None, property_id: str) -> list[PersonRole]:
    """The roles that carry authority at the property. A deceased Person, a merged-away one, or
    one classified as spam / wrong number carries none, whatever rows still exist."""
    if person_id is None:
        return []
    person = await spine.get_person(person_id)
    if person is None or person.deceased or person.merged_into_person_id or person.category is not None:
        return []
    return await resolve_active_roles(spine, person_id, property_id)


def records_visible(caller: Caller) -> bool:
    """Whether person-specific records (the name on file, personContext, open work orders) may go
    into this caller's prompt: only for a Person with an active role at the inbound property. A
    deceased, spam or merged-away Person, or one calling another property's line, gets none."""
    return caller.person_id is not None and bool(caller.roles)


async def load_caller(spine: Spine, person_id: str | None, property_id: str, interaction_id: str,
                      channel: Channel = Channel.SMS, impersonated_by: str | None = None) -> Caller:
    prop = await spine.get_property(property_id)
    roles = await authoritative_roles(spine, person_id, property_id)
    return Caller.from_store(person_id, property_id, prop.org_id if prop else None, roles, interaction_id, channel,
                             impersonated_by)
