"""Work orders, tours, prospects and renewals: the records tools read and write."""
from __future__ import annotations

import re
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

from spine.identity import utcnow

# A work order's two ids, both from its number (the sequence "work_order"): the store id `wo_<n>`
# and the display id `WO-<n>` people and the model use. Spelled here only; each reader (the tools'
# lenient one, the CSV import's strict one, mentions in free text) finds the number, then asks here.
_DIGITS = re.compile(r"[0-9]+")
_STORE_PREFIX, _DISPLAY_PREFIX = "wo_", "WO-"


def spell_work_order_id(number: int) -> str:
    return f"{_STORE_PREFIX}{number}"


def spell_display_id(number: int) -> str:
    return f"{_DISPLAY_PREFIX}{number}"


def display_id_of(work_order_id: str) -> str:
    """`wo_7` -> `WO-7`."""
    return f"{_DISPLAY_PREFIX}{work_order_id.removeprefix(_STORE_PREFIX)}"


def is_display_id(named: str) -> bool:
    """Whether a name as the tools spell a target ("WO-7", "unit 312") is a work order's display id."""
    return named.startswith(_DISPLAY_PREFIX)


def number_in(spelled: str) -> int | None:
    """The number of a work order named any way ("WO-7", "wo_7", "#7", "7"): its first digits."""
    match = _DIGITS.search(spelled or "")
    return int(match.group()) if match else None


class WorkOrderStatus(StrEnum):
    OPEN = "open"
    DISPATCHED = "dispatched"
    SCHEDULED = "scheduled"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"
    CLOSED = "closed"
    CANCELLED = "cancelled"
    NO_SHOW = "no_show"  # staff marked it (POST /admin/api/tours/{tour_id}); follow-ups read it


OPEN_WORK_ORDER_STATUSES: frozenset[WorkOrderStatus] = frozenset(
    {WorkOrderStatus.OPEN, WorkOrderStatus.DISPATCHED, WorkOrderStatus.SCHEDULED, WorkOrderStatus.IN_PROGRESS}
)


class Priority(StrEnum):
    """How soon someone must act: a work order's priority and an escalation's urgency, one scale."""

    NORMAL = "normal"
    URGENT = "urgent"
    EMERGENCY = "emergency"  # pages the on-call team

    @property
    def rank(self) -> int:
        """Higher is sooner: a report again at a higher priority raises the work order's."""
        return list(Priority).index(self)


class WorkOrderNote(BaseModel):
    at: datetime = Field(default_factory=utcnow)
    author_person_id: str | None = None
    text: str


class WorkOrderPmsLink(BaseModel):
    """Where a work order lives in the property's PMS too (the connector writes it): the board shows
    the PMS id and when it was last synced."""
    system: str
    id: str
    synced_at: datetime | None = None


class WorkOrderEdit(BaseModel):
    """One field a person changed (staff in the console): who, when, from what to what."""
    at: datetime = Field(default_factory=utcnow)
    by_person_id: str | None = None
    field: str
    before: str | None = None
    after: str | None = None


class WorkOrder(BaseModel):
    # A priority set as its word ("emergency") is read as a Priority, so the record stays typed.
    model_config = ConfigDict(validate_assignment=True)

    id: str
    display_id: str
    property_id: str
    unit_id: str | None = None
    status: WorkOrderStatus = WorkOrderStatus.OPEN
    brief: str
    description: str = ""
    priority: Priority = Priority.NORMAL
    notes: list[WorkOrderNote] = Field(default_factory=list)
    assigned_vendor_id: str | None = None
    eta: str | None = None
    photo_urls: list[str] = Field(default_factory=list)
    # What request_photo asked the tenant to show, until photos arrive by MMS (tools.photos).
    photo_request: str | None = None
    rating: int | None = None
    created_by_person_id: str | None = None
    # Reported on a phone call whose caller was not verified (the caller ID is not identity): the
    # number on file to call back and confirm with before anyone acts on it.
    confirm_by_callback: str | None = None
    pms: WorkOrderPmsLink | None = None
    changes: list[WorkOrderEdit] = Field(default_factory=list)
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)

    # The stored data as its reader found it (Spine.get_work_order): what a writer changed is the
    # fields that differ from it, applied onto the stored order by compare-and-set
    # (Spine.note_work_order), so two writers at once (a vendor's ETA and a tenant's "reported
    # again") both keep theirs. None: not read from the store; written whole.
    _as_read: dict[str, Any] | None = PrivateAttr(default=None)

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_WORK_ORDER_STATUSES

    def remember_read(self, data: dict[str, Any]) -> WorkOrder:
        self._as_read = data
        return self

    def changed_since_read(self) -> frozenset[str] | None:
        """The fields set since it was read; None when it was not read from the store."""
        if self._as_read is None:
            return None
        read = WorkOrder.model_validate(self._as_read)
        return frozenset(name for name in WorkOrder.model_fields if getattr(self, name) != getattr(read, name))


class TourStatus(StrEnum):
    REQUESTED = "requested"
    SCHEDULED = "scheduled"
    COMPLETED = "completed"
    CANCELLED = "cancelled"
    NO_SHOW = "no_show"  # staff marked it (POST /admin/api/tours/{tour_id}); follow-ups read it


class Tour(BaseModel):
    id: str
    prospect_person_id: str
    property_id: str
    unit_id: str | None = None
    scheduled_at: datetime
    status: TourStatus = TourStatus.SCHEDULED
    status_by_person_id: str | None = None  # the staff member who set completed / no_show / cancelled
    status_at: datetime | None = None


class Prospect(BaseModel):
    person_id: str
    property_id: str
    stage: str = "inquiry"
    bedrooms: int | None = None
    move_in: date | None = None
    budget_usd: int | None = None
    notes: str = ""
    updated_at: datetime = Field(default_factory=utcnow)


class RenewalOffer(BaseModel):
    term_months: int
    monthly_rent_usd: int


class RenewalStatus(StrEnum):
    OFFERED = "offered"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    EXPIRED = "expired"


class RenewalWorkflow(BaseModel):
    id: str
    unit_id: str
    lease_id: str
    status: RenewalStatus = RenewalStatus.OFFERED
    offers: list[RenewalOffer] = Field(default_factory=list)
    chosen_term_months: int | None = None
    respond_by: date | None = None
