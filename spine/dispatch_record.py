"""A vendor dispatch as the store keeps it: which work order went to which vendor's contacts, and
what became of it (ServiceChannel's dispatch accepted by reply)."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field


class DispatchStatus(StrEnum):
    PENDING = "pending"      # sent; a contact may answer YES or NO
    OVERDUE = "overdue"      # not accepted in time: the managers were told; a YES still takes it
    ACCEPTED = "accepted"
    DECLINED = "declined"
    WITHDRAWN = "withdrawn"  # the work order went to someone else, or was closed

    @property
    def open(self) -> bool:
        return self in (DispatchStatus.PENDING, DispatchStatus.OVERDUE)


class Dispatch(BaseModel):
    id: str
    work_order_id: str
    work_order_display_id: str
    vendor_id: str
    property_id: str
    contact_person_ids: list[str] = Field(default_factory=list)
    status: DispatchStatus = DispatchStatus.PENDING
    sent_at: datetime
    sent_by_person_id: str | None = None
    answered_by_person_id: str | None = None
    answered_at: datetime | None = None
