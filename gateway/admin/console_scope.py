"""What the signed-in identity may see and do in the staff console: the admin scope
(desk.console.admin_scope, derived from the store per request) as property sets. The operator sees and
acts on every property; a staff Person reads where their staff roles are in force and acts
(writes, takes over, acknowledges, resolves) only where a role other than `viewer` is. A person
(tenant, vendor, prospect) is in reach when their conversation or one of their roles is at a
property in reach.
"""
from __future__ import annotations

from dataclasses import dataclass

from fastapi import HTTPException, Request

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


async def person_properties(spine: Spine, person_id: str, head: Conversation | None) -> set[str]:
    """Where the person is known: their conversation's property and their roles' properties."""
    found = {head.property_id} if head and head.property_id else set()
    for role in await spine.roles_of(person_id):
        scope = role.scope
        if scope.property_id:
            found.add(scope.property_id)
        if scope.unit_id:
            unit = await spine.get_unit(scope.unit_id)
            if unit is not None:
                found.add(unit.property_id)
        if scope.vendor_id:
            vendor = await spine.get_vendor(scope.vendor_id)
            found |= set(vendor.services_property_ids) if vendor else set()
    return found


async def person_in_reach(spine: Spine, scope: ConsoleScope, person_id: str,
                          head: Conversation | None) -> set[str]:
    """The person's properties, when the identity may read at least one of them; else 404."""
    where = await person_properties(spine, person_id, head)
    if not where & scope.reads:
        raise HTTPException(404, NOT_FOUND)
    return where
