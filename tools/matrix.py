"""TOOL_ROLE_MATRIX: which PersonRoleTypes may call each tool, and under which scope (ADR L3).

The matrix keys on the nine PersonRoleTypes, not on MetaRoles, so staff variants differ (a
viewer shares the pm prompt but gets no mutation tool). Each tool lives in exactly one catalog;
two roles needing similar power with different scopes get different tools
(create_work_order vs pm_create_work_order).
"""
from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from spine.identity import OccupancyKind, PersonRoleType

T = PersonRoleType


class Scope(StrEnum):
    OWN_UNIT_OCCUPANT = "own-unit-occupant"  # primary, roommate or guarantor of the unit
    OWN_UNIT_PRIMARY = "own-unit-primary"  # primary signers only
    OWN_UNIT_FINANCIALLY_RESPONSIBLE = "own-unit-financially-responsible"  # primary or guarantor
    ASSIGNED_WO = "assigned-wo"  # the work order is assigned to the caller's vendor
    INBOUND_PROPERTY = "inbound-property"  # the property the inbound reached
    SELF = "self"  # the caller is the subject
    ORG_WIDE = "org-wide"  # anything in the inbound property's organization
    NONE = "none"  # no target at all (general knowledge)


# The occupancy kinds each own-unit scope accepts.
UNIT_SCOPES: dict[Scope, frozenset[OccupancyKind]] = {
    Scope.OWN_UNIT_OCCUPANT: frozenset(OccupancyKind),
    Scope.OWN_UNIT_PRIMARY: frozenset({OccupancyKind.PRIMARY}),
    Scope.OWN_UNIT_FINANCIALLY_RESPONSIBLE: frozenset({OccupancyKind.PRIMARY, OccupancyKind.GUARANTOR}),
}

Catalog = Literal["tenant", "vendor", "prospect", "pm", "facility", "universal"]
ANY: Literal["*"] = "*"


class ToolPolicy(BaseModel):
    model_config = ConfigDict(frozen=True)

    roles: frozenset[PersonRoleType] | Literal["*"]
    scope: Scope
    catalog: Catalog
    read_only: bool
    voice_applicable: bool = True


def _p(roles: frozenset[PersonRoleType] | Literal["*"], scope: Scope, catalog: Catalog, *, read_only: bool,
       voice: bool = True) -> ToolPolicy:
    return ToolPolicy(roles=roles, scope=scope, catalog=catalog, read_only=read_only, voice_applicable=voice)


TENANT = frozenset({T.TENANT})
VENDOR = frozenset({T.VENDOR_CONTACT})
PROSPECT = frozenset({T.PROSPECT})
ALL_STAFF = frozenset({T.PM, T.ORG_ADMIN, T.LEASING_AGENT, T.MAINTENANCE, T.VIEWER, T.PLATFORM_ADMIN})
WORK_ORDER_STAFF = frozenset({T.PM, T.ORG_ADMIN, T.MAINTENANCE})
MANAGERS = frozenset({T.PM, T.ORG_ADMIN})
RENEWAL_STAFF = frozenset({T.PM, T.ORG_ADMIN, T.LEASING_AGENT})

S = Scope
TOOL_ROLE_MATRIX: dict[str, ToolPolicy] = {
    # Tenant tools
    "create_work_order": _p(TENANT, S.OWN_UNIT_OCCUPANT, "tenant", read_only=False),
    "get_unit_appliances": _p(TENANT, S.OWN_UNIT_OCCUPANT, "tenant", read_only=True),
    "request_photo": _p(TENANT, S.OWN_UNIT_OCCUPANT, "tenant", read_only=False, voice=False),
    "get_work_order_detail": _p(TENANT, S.OWN_UNIT_OCCUPANT, "tenant", read_only=True),
    "get_lease_details": _p(TENANT, S.OWN_UNIT_OCCUPANT, "tenant", read_only=True),
    "submit_rating": _p(TENANT, S.OWN_UNIT_OCCUPANT, "tenant", read_only=False),
    "get_balance": _p(TENANT, S.OWN_UNIT_FINANCIALLY_RESPONSIBLE, "tenant", read_only=True),
    "respond_to_renewal": _p(TENANT, S.OWN_UNIT_PRIMARY, "tenant", read_only=False),
    "get_troubleshooting_steps": _p(TENANT, S.NONE, "tenant", read_only=True),
    # Vendor tools
    "accept_dispatch": _p(VENDOR, S.ASSIGNED_WO, "vendor", read_only=False),
    "update_work_order": _p(VENDOR, S.ASSIGNED_WO, "vendor", read_only=False),
    "add_eta_note": _p(VENDOR, S.ASSIGNED_WO, "vendor", read_only=False),
    "get_dispatch_details": _p(VENDOR, S.ASSIGNED_WO, "vendor", read_only=True),
    "handoff_to_other_vendor": _p(VENDOR, S.ASSIGNED_WO, "vendor", read_only=False),
    # Prospect tools
    "save_prospect": _p(PROSPECT, S.SELF, "prospect", read_only=False),
    "schedule_tour": _p(PROSPECT, S.SELF, "prospect", read_only=False),
    "send_application_link": _p(PROSPECT, S.SELF, "prospect", read_only=False, voice=False),
    "get_available_units": _p(PROSPECT, S.INBOUND_PROPERTY, "prospect", read_only=True),
    "get_pricing_details": _p(PROSPECT, S.INBOUND_PROPERTY, "prospect", read_only=True),
    # PM tools, keyed on the staff variant
    "pm_lookup_person": _p(ALL_STAFF, S.ORG_WIDE, "pm", read_only=True),
    "pm_list_open_work_orders": _p(ALL_STAFF, S.ORG_WIDE, "pm", read_only=True),
    "pm_create_work_order": _p(WORK_ORDER_STAFF, S.ORG_WIDE, "pm", read_only=False),
    "pm_assign_vendor": _p(WORK_ORDER_STAFF, S.ORG_WIDE, "pm", read_only=False),
    "pm_close_work_order": _p(MANAGERS, S.ORG_WIDE, "pm", read_only=False),
    "pm_send_renewal": _p(RENEWAL_STAFF, S.ORG_WIDE, "pm", read_only=False),
    # Property facility info: every role, unknown callers included
    "get_property_amenities": _p(ANY, S.INBOUND_PROPERTY, "facility", read_only=True),
    "get_property_hours": _p(ANY, S.INBOUND_PROPERTY, "facility", read_only=True),
    "get_pet_policy": _p(ANY, S.INBOUND_PROPERTY, "facility", read_only=True),
    "get_parking_rules": _p(ANY, S.INBOUND_PROPERTY, "facility", read_only=True),
    "get_pool_status": _p(ANY, S.INBOUND_PROPERTY, "facility", read_only=True),
    # Universal escalation
    "escalate_to_human": _p(ANY, S.SELF, "universal", read_only=False),
}
