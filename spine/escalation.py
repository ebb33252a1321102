"""Records the tool layer leaves for people: escalations to a human and application links."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from spine.identity import utcnow
from spine.work import Priority


class EscalationStatus(StrEnum):
    OPEN = "open"
    ACKNOWLEDGED = "acknowledged"
    RESOLVED = "resolved"


class EscalationNote(BaseModel):
    """A staff action on an escalation: who acknowledged or resolved it, when, and what they noted."""

    status: EscalationStatus
    by: str  # the signed-in identity: a staff Person id, or "operator"
    at: datetime = Field(default_factory=utcnow)
    note: str = ""


class Escalation(BaseModel):
    """A hand-off to the property's staff. Durable, so a PM sees it even if the caller hangs up.
    An unknown caller (no Person) can escalate too; then only the channel and property identify it."""

    id: str
    org_id: str
    property_id: str
    person_id: str | None = None
    channel: str = ""
    interaction_id: str = ""
    reason: str
    urgency: Priority = Priority.NORMAL
    summary: str = ""
    status: EscalationStatus = EscalationStatus.OPEN
    created_at: datetime = Field(default_factory=utcnow)
    # Who, as the console shows it (filled from the Person when the escalation is first written).
    name: str | None = None
    wire_address_last4: str | None = None
    notes: list[EscalationNote] = Field(default_factory=list)
    page_id: str | None = None  # the on-call page it started or joined (set once the page starts)


class ApplicationLink(BaseModel):
    """A rental application link sent to a prospect; recorded so leasing staff can follow up."""

    id: str
    person_id: str
    property_id: str
    url: str
    email: str | None = None
    created_at: datetime = Field(default_factory=utcnow)
