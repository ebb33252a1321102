"""Caller: who is calling a tool, re-derived from the store, never taken from a claim."""
from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field, PrivateAttr

from spine.context import Channel
from spine.identity import PersonRole
from spine.repo import Spine
from spine.roles import resolve_active_roles

if TYPE_CHECKING:
    from tools.facts import CallerFacts


class Caller(BaseModel):
    person_id: str | None
    property_id: str
    org_id: str | None
    roles: list[PersonRole] = Field(default_factory=list)  # active at property_id
    interaction_id: str
    channel: Channel = Channel.SMS

    # The gate's facts, loaded once per interaction. Private: never serialized, so a Caller
    # that crossed a process boundary is re-derived from the store, not trusted.
    _facts: CallerFacts | None = PrivateAttr(default=None)
    # The roles as load_caller read them from the store in this process. While `roles` still
    # equals this snapshot the gate need not query them again; a copy with other roles, or a
    # Caller that crossed a process boundary (private attributes are not serialized), is re-derived.
    _store_roles: tuple[PersonRole, ...] | None = PrivateAttr(default=None)

    def roles_from_store(self) -> list[PersonRole] | None:
        """The roles, if they are still exactly what the store said; None otherwise."""
        if self._store_roles is not None and tuple(self.roles) == self._store_roles:
            return self.roles
        return None


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
                      channel: Channel = Channel.SMS) -> Caller:
    prop = await spine.get_property(property_id)
    roles = await authoritative_roles(spine, person_id, property_id)
    caller = Caller(person_id=person_id, property_id=property_id, org_id=prop.org_id if prop else None,
                    roles=roles, interaction_id=interaction_id, channel=channel)
    caller._store_roles = tuple(roles)  # roles are frozen: the same objects are the same roles
    return caller
