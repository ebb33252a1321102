"""TurnFacts: the typed facts of one turn, handed to a backend beside the rendered prompt.

A real model reads the prose prompt; the offline policy must not (a renamed prompt line would
change its behaviour silently), so the interaction hands it the same facts as values: who is
talking, their active roles and tenancies, the personContext pointers, and the typed results of
the tool calls made so far this turn. It never reaches the Messages API (ModelRequest.facts is
excluded from every dump). The interaction builds it from the turn's Opening (actors.turn.opening:
Person, roles, authority facts, personContext).
"""
from __future__ import annotations

from pydantic import BaseModel, Field

from spine.context import PersonContext
from spine.identity import OccupancyKind, PersonRoleType
from spine.routing_types import L1Result, MetaRole
from spine.toolspec import ToolResult


class Tenancy(BaseModel):
    unit: str  # the unit number, "204"
    kind: OccupancyKind


class TurnFacts(BaseModel):
    caller_name: str | None = None
    roles: list[MetaRole] = Field(default_factory=list)
    role_types: list[PersonRoleType] = Field(default_factory=list)
    tenancies: list[Tenancy] = Field(default_factory=list)  # at the inbound property
    context: PersonContext = Field(default_factory=lambda: PersonContext(person_id=""))
    results: list[ToolResult] = Field(default_factory=list)  # this turn's tool results, in order

    @property
    def first_name(self) -> str | None:
        # A minted prospect's placeholder name ("Prospect …9876") is not a name to greet.
        if not self.caller_name or self.caller_name.startswith("Prospect "):
            return None
        return self.caller_name.split()[0]

    @property
    def unknown(self) -> bool:
        return not self.roles or self.roles == [MetaRole.OTHER]

    def holds(self, *kinds: OccupancyKind) -> bool:
        return any(t.kind in kinds for t in self.tenancies)


def turn_facts(l1: L1Result, role_types: list[PersonRoleType], tenancies: list[Tenancy], context: PersonContext,
               caller_name: str | None) -> TurnFacts:
    """From what the turn has: the L1 result and, from the Opening, the authority facts and names."""
    return TurnFacts(caller_name=caller_name, roles=list(l1.roles), role_types=role_types, tenancies=tenancies,
                     context=context)
