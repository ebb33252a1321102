"""What the signed-in identity may see and do in the staff console: the admin scope
(desk.console.admin_scope, derived from the store per request) as property sets. The operator sees and
acts on every property; a staff Person reads where their staff roles are in force and acts
(writes, takes over, acknowledges, resolves) only where a role other than `viewer` is. A
conversation is a person's at one property: the console reads and acts on those at properties in
scope only, however the person is related to other properties.
"""
from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, Request

from desk.console.admin_scope import person_reach
from gateway.admin.auth import AdminIdentity, signed_in, signed_in_scope
from gateway.context import GatewayContext
from spine.conversation import Conversation
from spine.repo import Spine

NOT_FOUND = "no such person in your properties"
READ_ONLY = "a viewer reads but never sends, resolves or takes over"


@dataclass(frozen=True, slots=True)
class ConsoleScope:
    identity: AdminIdentity
    reads: frozenset[str]  # property ids
    acts: frozenset[str]
    whole_orgs: frozenset[str]  # orgs read in full (their org-wide escalation queue serves them)
    singles: frozenset[str]  # properties read outside those orgs (each its own queue)

    def check_read(self, property_id: str) -> None:
        if property_id not in self.reads:
            raise HTTPException(403, f"property {property_id!r} is not in your scope")

    def check_act(self, property_ids: set[str]) -> None:
        if not property_ids & self.acts:
            raise HTTPException(403, READ_ONLY if property_ids & self.reads else NOT_FOUND)


async def console_scope(ctx: GatewayContext, request: Request) -> ConsoleScope:
    """The console's view of the signed-in scope (gateway.admin.auth.signed_in_scope, desk.console.admin_scope)."""
    admin = await signed_in_scope(ctx, request)
    properties = await ctx.spine.list_properties()
    reads = frozenset(p.id for p in properties if admin.sees(p.id))
    acts = frozenset(p for p in reads if admin.may_act(p))
    by_org: dict[str, set[str]] = {}
    for prop in properties:
        by_org.setdefault(prop.org_id, set()).add(prop.id)
    whole = frozenset(org for org, ids in by_org.items() if ids <= reads)
    singles = reads - {p for org in whole for p in by_org[org]}
    return ConsoleScope(signed_in(request), reads, acts, whole, frozenset(singles))


async def conversation_in_scope(spine: Spine, scope: ConsoleScope, person_id: str, property_id: str | None, *,
                                acting: bool = False) -> Conversation:
    """The person's conversation at one property in scope: the one named, else (reading) their most
    recent there, else (acting) their most recent where the identity may act. A person is at a
    property when they wrote there or one of their roles is in force there (desk.console.admin_scope's
    person_reach, the tool gate's rule); nothing they said at a property out of scope is ever part
    of it. 404 when the person is at no property the identity reads; 403 when it only reads there."""
    heads = {h.property_id: h for h in await spine.conversations_of(person_id) if h.property_id in scope.reads}
    reach = await person_reach(spine, person_id) & scope.reads
    where = [*heads, *sorted(reach - heads.keys())]  # conversations newest first, then roles
    if property_id is not None:
        where = [property_id] if property_id in where else []
    if not where:
        raise HTTPException(404, NOT_FOUND)
    if acting:
        scope.check_act(set(where))
        where = [p for p in where if p in scope.acts]
    chosen = where[0]
    if chosen in heads:
        return heads[chosen]
    person = await spine.get_person(person_id)
    return Conversation(person_id=person_id, property_id=chosen, name=person.display_name if person else None)
