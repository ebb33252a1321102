"""catalog_for(): exactly the tools the model may see for a caller.

A tool is offered when one of the caller's active role types may call it (the matrix keys on
role types). Scope (which unit, which work order, and the occupancy kind a unit scope needs) is
checked by the gate at dispatch, as the ADR puts it, so every caller with the same role types gets
the same byte-identical list and the same cached prompt prefix: a roommate sees
respond_to_renewal and is refused, with the rule named, if she calls it.
Order is fixed (facility sorted, role tools sorted, escalate_to_human last).
"""
from __future__ import annotations

from functools import lru_cache

from spine.identity import PersonRoleType
from spine.toolspec import ToolSpec
from tools.caller import Caller
from tools.matrix import TOOL_ROLE_MATRIX, ToolPolicy
from tools.registry import TOOLS

ESCALATE = "escalate_to_human"
RoleShape = frozenset[PersonRoleType]


def role_shape(caller: Caller) -> RoleShape:
    return frozenset(r.role_type for r in caller.roles)


def _offered(policy: ToolPolicy, shape: RoleShape) -> bool:
    """Voice-only tools (the step-up) are in the voice catalog, never in a text prompt."""
    return not policy.voice_only and (policy.roles == "*" or not policy.roles.isdisjoint(shape))


def _ordered(names: list[str]) -> tuple[str, ...]:
    facility = sorted(n for n in names if TOOL_ROLE_MATRIX[n].catalog == "facility")
    roles = sorted(n for n in names if TOOL_ROLE_MATRIX[n].catalog != "facility" and n != ESCALATE)
    return tuple(facility + roles + ([ESCALATE] if ESCALATE in names else []))


@lru_cache(maxsize=256)
def _names_for(shape: RoleShape) -> tuple[str, ...]:
    return _ordered([n for n, p in TOOL_ROLE_MATRIX.items() if _offered(p, shape)])


def catalog_names(caller: Caller) -> tuple[str, ...]:
    return _names_for(role_shape(caller))


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


def voice_catalog() -> list[ToolSpec]:
    """Every voice-applicable tool: the single voice agent carries them all; the gate still
    decides each call against the caller."""
    return _specs(_ordered([n for n, p in TOOL_ROLE_MATRIX.items() if p.voice_applicable]))
