"""TOOL_ROLE_MATRIX: which PersonRoleTypes may call each tool, and under which scope (ADR L3).

The matrix keys on the nine PersonRoleTypes, not on MetaRoles, so staff variants differ (a
viewer shares the pm prompt but gets no mutation tool). Each tool lives in exactly one catalog;
two roles needing similar power with different scopes get different tools
(create_work_order vs pm_create_work_order).

`verified_caller` is the voice column: on a phone call the caller ID is not identity (it is
trivially spoofed), so a tool runs on an unverified call only when a stranger holding the number's
caller ID could do no harm with it. Verified (STIR/SHAKEN A, or the step-up code; see
tools/handlers/step_up.py) is needed by every tool that
- acts with staff authority (every pm_* tool);
- reveals or changes money or the lease (balance, lease details, the renewal);
- changes a work order that already exists, or completes it (a vendor's accept, update, ETA note,
  hand-off; a tenant's rating): "WO-7 is done" or "leave the door unlocked" from a spoofed number
  would close real work or open a door;
- reads another party's notes on a work order (the notes, the vendor, the ETA, the address).
Free on an unverified call: what anyone at the property may learn anyway (facility facts, units
and prices, troubleshooting steps, the unit's appliances), a prospect's own inquiry and tour, a
person from the team (escalation), the step-up itself, and creating a work order: a leak must be
reportable at once, and the work order records that it came from an unverified call with a
callback to the number on file (tools/handlers/tenant.py), so the team confirms with the real
person before anyone acts on it. The voice [CONTEXT] of an unverified call follows the same
column (actors/turn/call_opening.py). SMS keeps the ADR's trust in the sender number (docs/security.md,
"Why voice and SMS differ").
"""
from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from spine.identity import OccupancyKind, PersonRoleType


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
    verified_caller: bool = False  # on voice: refused until the call is verified
    voice_only: bool = False  # offered on phone calls only (the step-up)


def policy(roles: frozenset[PersonRoleType] | Literal["*"], scope: Scope, catalog: Catalog, *, read_only: bool,
           voice: bool = True, verified: bool = False, voice_only: bool = False) -> ToolPolicy:
    """One row of the matrix (`voice`: offered on phone calls; `verified`: on a call, only once verified)."""
    return ToolPolicy(roles=roles, scope=scope, catalog=catalog, read_only=read_only, voice_applicable=voice,
                      verified_caller=verified, voice_only=voice_only)


TENANT = frozenset({PersonRoleType.TENANT})
VENDOR = frozenset({PersonRoleType.VENDOR_CONTACT})
PROSPECT = frozenset({PersonRoleType.PROSPECT})
ALL_STAFF = frozenset({PersonRoleType.PM, PersonRoleType.ORG_ADMIN, PersonRoleType.LEASING_AGENT,
                       PersonRoleType.MAINTENANCE, PersonRoleType.VIEWER, PersonRoleType.PLATFORM_ADMIN})
WORK_ORDER_STAFF = frozenset({PersonRoleType.PM, PersonRoleType.ORG_ADMIN, PersonRoleType.MAINTENANCE})
MANAGERS = frozenset({PersonRoleType.PM, PersonRoleType.ORG_ADMIN})
EVERY_ROLE = frozenset(PersonRoleType)  # every role type, so not the `other` lane (no role at all)
# renewals and tours
LEASING_STAFF = frozenset({PersonRoleType.PM, PersonRoleType.ORG_ADMIN, PersonRoleType.LEASING_AGENT})

TOOL_ROLE_MATRIX: dict[str, ToolPolicy] = {
    # Tenant tools. On an unverified call (the voice column, `verified`): a new work order yes (records
    # the callback to the number on file), the unit's appliances and troubleshooting yes (no one's data);
    # a work order's detail no (its notes, vendor, ETA), a rating no (changes a finished work order).
    "create_work_order": policy(TENANT, Scope.OWN_UNIT_OCCUPANT, "tenant", read_only=False),
    "get_unit_appliances": policy(TENANT, Scope.OWN_UNIT_OCCUPANT, "tenant", read_only=True),
    "request_photo": policy(TENANT, Scope.OWN_UNIT_OCCUPANT, "tenant", read_only=False, voice=False),
    "get_work_order_detail": policy(TENANT, Scope.OWN_UNIT_OCCUPANT, "tenant", read_only=True, verified=True),
    "get_lease_details": policy(TENANT, Scope.OWN_UNIT_OCCUPANT, "tenant", read_only=True, verified=True),
    "submit_rating": policy(TENANT, Scope.OWN_UNIT_OCCUPANT, "tenant", read_only=False, verified=True),
    "get_balance": policy(TENANT, Scope.OWN_UNIT_FINANCIALLY_RESPONSIBLE, "tenant", read_only=True, verified=True),
    "respond_to_renewal": policy(TENANT, Scope.OWN_UNIT_PRIMARY, "tenant", read_only=False, verified=True),
    "get_troubleshooting_steps": policy(TENANT, Scope.NONE, "tenant", read_only=True),
    # Vendor tools: every one reads or changes an existing work order, so none before the call is verified.
    "accept_dispatch": policy(VENDOR, Scope.ASSIGNED_WO, "vendor", read_only=False, verified=True),
    "update_work_order": policy(VENDOR, Scope.ASSIGNED_WO, "vendor", read_only=False, verified=True),
    "add_eta_note": policy(VENDOR, Scope.ASSIGNED_WO, "vendor", read_only=False, verified=True),
    "get_dispatch_details": policy(VENDOR, Scope.ASSIGNED_WO, "vendor", read_only=True, verified=True),
    "handoff_to_other_vendor": policy(VENDOR, Scope.ASSIGNED_WO, "vendor", read_only=False, verified=True),
    # Prospect tools
    "save_prospect": policy(PROSPECT, Scope.SELF, "prospect", read_only=False),
    "schedule_tour": policy(PROSPECT, Scope.SELF, "prospect", read_only=False),
    "send_application_link": policy(PROSPECT, Scope.SELF, "prospect", read_only=False, voice=False),
    "get_available_units": policy(PROSPECT, Scope.INBOUND_PROPERTY, "prospect", read_only=True),
    "get_pricing_details": policy(PROSPECT, Scope.INBOUND_PROPERTY, "prospect", read_only=True),
    # PM tools, keyed on the staff variant
    "pm_lookup_person": policy(ALL_STAFF, Scope.ORG_WIDE, "pm", read_only=True, verified=True),
    "pm_list_open_work_orders": policy(ALL_STAFF, Scope.ORG_WIDE, "pm", read_only=True, verified=True),
    "pm_create_work_order": policy(WORK_ORDER_STAFF, Scope.ORG_WIDE, "pm", read_only=False, verified=True),
    "pm_assign_vendor": policy(WORK_ORDER_STAFF, Scope.ORG_WIDE, "pm", read_only=False, verified=True),
    "pm_close_work_order": policy(MANAGERS, Scope.ORG_WIDE, "pm", read_only=False, verified=True),
    "pm_send_renewal": policy(LEASING_STAFF, Scope.ORG_WIDE, "pm", read_only=False, verified=True),
    "pm_list_tours": policy(LEASING_STAFF, Scope.ORG_WIDE, "pm", read_only=True, verified=True),
    # Property facility info: every role, unknown callers included
    "get_property_amenities": policy(ANY, Scope.INBOUND_PROPERTY, "facility", read_only=True),
    "get_property_hours": policy(ANY, Scope.INBOUND_PROPERTY, "facility", read_only=True),
    "get_pet_policy": policy(ANY, Scope.INBOUND_PROPERTY, "facility", read_only=True),
    "get_parking_rules": policy(ANY, Scope.INBOUND_PROPERTY, "facility", read_only=True),
    "get_pool_status": policy(ANY, Scope.INBOUND_PROPERTY, "facility", read_only=True),
    # Universal escalation
    "escalate_to_human": policy(ANY, Scope.SELF, "universal", read_only=False),
    # The voice step-up: text a one-time code to the number on file, check what the caller reads back
    "send_verification_code": policy(ANY, Scope.SELF, "universal", read_only=False, voice_only=True),
    "check_verification_code": policy(ANY, Scope.SELF, "universal", read_only=False, voice_only=True),
    # A person on the phone: every role (the `other` lane holds none, so it is refused), unverified too
    # (asking for the office gives a stranger nothing; the person answering hears who the number is).
    "transfer_to_staff": policy(EVERY_ROLE, Scope.INBOUND_PROPERTY, "universal", read_only=False, voice_only=True),
}
