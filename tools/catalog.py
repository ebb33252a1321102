"""catalog_for(): exactly the tools the model may see for a caller.

A tool is offered when one of the caller's active role types may call it (the matrix keys on
role types) AND the caller's scope can ever pass it: a unit-scoped tool needs an occupancy kind
its scope accepts, so a roommate's catalog has no get_balance (primary or guarantor) and no
respond_to_renewal (primary only). Which unit or work order a call names is still the gate's to
check at dispatch. The catalog is a pure function of the CatalogShape (role types + occupancy
kinds held), in a fixed order (facility sorted, role tools sorted, escalate_to_human last), so
every caller with the same shape gets the same byte-identical list and, with the same MetaRoles,
the same cached prompt prefix; callers whose catalogs differ (a roommate and a primary signer)
get different prefixes, each shared by everyone of that shape.
"""
from __future__ import annotations

from functools import lru_cache

from spine.identity import OccupancyKind, PersonRoleType
from spine.toolspec import ToolSpec
from tools.caller import Caller
from tools.matrix import TOOL_ROLE_MATRIX, UNIT_SCOPES, ToolPolicy
from tools.registry import TOOLS

ESCALATE = "escalate_to_human"
CatalogShape = tuple[frozenset[PersonRoleType], frozenset[OccupancyKind]]


def catalog_shape(caller: Caller) -> CatalogShape:
    """What a catalog depends on: the role types, and the occupancy kinds of the tenant roles, as
    the caller's derived authority says. A Caller with none derived here (one that crossed a
    process boundary) is offered what no role is: the catalog fails closed, never open."""
    authority = caller.derived()
    if authority is None:
        return frozenset(), frozenset()
    facts = authority.facts
    return facts.role_types, frozenset(kind for kinds in facts.units.values() for kind in kinds)


def _offered(policy: ToolPolicy, shape: CatalogShape) -> bool:
    """Voice-only tools (the step-up) are in the voice catalog, never in a text prompt; a unit
    scope that no held occupancy kind satisfies would refuse every call, so it is not offered."""
    role_types, kinds = shape
    if policy.voice_only or (policy.roles != "*" and policy.roles.isdisjoint(role_types)):
        return False
    return policy.scope not in UNIT_SCOPES or not UNIT_SCOPES[policy.scope].isdisjoint(kinds)


def _ordered(names: list[str]) -> tuple[str, ...]:
    facility = sorted(n for n in names if TOOL_ROLE_MATRIX[n].catalog == "facility")
    roles = sorted(n for n in names if TOOL_ROLE_MATRIX[n].catalog != "facility" and n != ESCALATE)
    return tuple(facility + roles + ([ESCALATE] if ESCALATE in names else []))


@lru_cache(maxsize=256)
def _names_for(shape: CatalogShape) -> tuple[str, ...]:
    return _ordered([n for n, p in TOOL_ROLE_MATRIX.items() if _offered(p, shape)])


def catalog_names(caller: Caller) -> tuple[str, ...]:
    return _names_for(catalog_shape(caller))


def _specs(names: tuple[str, ...] | list[str]) -> list[ToolSpec]:
    # Shallow copies: a caller decorating its list (cache_control, say) must not change anyone
    # else's; the nested input schemas are shared and never modified.
    return [TOOLS[n].spec.model_copy() for n in names]


def catalog_for(caller: Caller) -> list[ToolSpec]:
    """Facility tools, then the caller's role tools, then escalate_to_human."""
    return _specs(catalog_names(caller))


def facility_tools() -> list[ToolSpec]:
    return _specs(_ordered([n for n, p in TOOL_ROLE_MATRIX.items() if p.catalog == "facility"]))


def role_tools_for(caller: Caller) -> list[ToolSpec]:
    """The catalog minus the facility tools (escalate_to_human stays, last)."""
    return _specs([n for n in catalog_names(caller) if TOOL_ROLE_MATRIX[n].catalog != "facility"])


def shared_role_tools(caller: Caller, other: Caller) -> list[ToolSpec]:
    """The caller's role tools that `other` is offered too: an impersonated turn offers only what
    both the person spoken as and the impersonator may call (the gate still decides each call)."""
    theirs = set(catalog_names(other))
    return _specs([n for n in catalog_names(caller) if TOOL_ROLE_MATRIX[n].catalog != "facility" and n in theirs])


def voice_catalog() -> list[ToolSpec]:
    """Every voice-applicable tool: the single voice agent carries them all; the gate still
    decides each call against the caller."""
    return _specs(_ordered([n for n, p in TOOL_ROLE_MATRIX.items() if p.voice_applicable]))
