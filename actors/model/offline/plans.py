"""What a rule of the offline policy decides: a Plan (an intent, the tool calls for it, the work
order meant), and the small readings several rules share."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from actors.model.offline.entities import Entities, extract
from actors.model.offline.reading import Reading
from actors.model.offline.vocabulary import NOT_A_NAME

Call = tuple[str, dict[str, Any]]


class Intent(StrEnum):
    """What the offline policy took the ask to be: one per rule outcome. A StrEnum, so logs and
    traces read the same words as before it was typed."""

    # a conversation's edges
    GREETING = "greeting"
    THANKS = "thanks"
    UNCLEAR = "unclear"
    WRONG_NUMBER = "wrong_number"
    HUMAN = "human"
    EMERGENCY = "emergency"
    # a tenant
    MAINTENANCE = "maintenance"
    WO_DETAILS = "wo_details"
    WO_STATUS_CONTEXT = "wo_status_context"
    RATING = "rating"
    RENEWAL = "renewal"
    RENEWAL_NOT_SIGNER = "renewal_not_signer"
    BALANCE = "balance"
    BALANCE_NOT_RESPONSIBLE = "balance_not_responsible"
    LEASE_DETAILS = "lease_details"
    UNIT_APPLIANCES = "unit_appliances"
    FACILITY = "facility"
    # a prospect
    AVAILABILITY = "availability"
    TOUR = "tour"
    TOUR_NEEDS_TIME = "tour_needs_time"
    TOUR_TIMING = "tour_timing"  # "running late" / "reschedule" about a booked tour (offline.tour_timing)
    APPLY = "apply"
    FAIR_HOUSING = "fair_housing"
    # a vendor
    VENDOR_ACCEPT = "vendor_accept"
    VENDOR_ETA = "vendor_eta"
    VENDOR_HANDOFF = "vendor_handoff"
    VENDOR_DONE = "vendor_done"
    VENDOR_NOTE = "vendor_note"
    # staff
    PM = "pm"
    PM_TOURS = "pm_tours"
    PM_RENEWAL_LOOKUP = "pm_renewal_lookup"
    PM_RENEWAL_TERMS = "pm_renewal_terms"


@dataclass
class Plan:
    intent: Intent
    calls: list[Call] = field(default_factory=list)
    wo: str | None = None  # the work order the caller means, if any
    fair_housing: bool = False  # a prospect touched a protected class: answer alike, steer no one
    entities: Entities | None = None  # what the reply should read, when the rule merged earlier words in


def earlier_work_order(r: Reading) -> str | None:
    """The work order the conversation was last about (Clara's last reply, then the caller's asks)."""
    for text in [r.last_reply(), *reversed(r.earlier_asks())]:
        if found := extract(text, r.today).work_orders:
            return found[0]
    return None


def with_unit(args: dict[str, Any], e: Entities) -> dict[str, Any]:
    return {**args, "unit": e.units[0]} if e.units else args


def proper_name(text: str) -> str | None:
    words = [w.strip("?!.,") for w in text.split()[1:]]
    names = [w for w in words if w[:1].isupper() and w.isalpha() and w not in NOT_A_NAME]
    return " ".join(names[:2]) or None
