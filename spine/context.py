"""personContext: the cross-interaction memory of one Person (ADR-0029, "personContext")."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

FRESH_CONTACT_SUMMARY = "This is a fresh contact. No prior context available."
SUMMARY_TOKEN_CAP = 800


class Channel(StrEnum):
    SMS = "sms"
    VOICE = "voice"
    EMAIL = "email"
    TELEGRAM = "telegram"
    ADMIN = "admin"


class ActiveWorkOrder(BaseModel):
    id: str
    display_id: str
    status: str
    brief: str
    as_vendor: bool = False  # the person is on it as the assigned vendor, not as a resident of its unit


class ActiveTour(BaseModel):
    id: str
    status: str
    scheduled_at: str


class ActivePointers(BaseModel):
    """Structured pointers built from the store without a model. Authoritative; the
    summary is advisory."""

    active_work_orders: list[ActiveWorkOrder] = Field(default_factory=list)
    active_tours: list[ActiveTour] = Field(default_factory=list)
    active_renewal_workflow_id: str | None = None
    last_channel: Channel | None = None
    last_interaction_at: datetime | None = None
    last_interaction_id: str | None = None


class PersonContext(BaseModel):
    person_id: str
    refreshed_at: datetime | None = None
    summary: str = FRESH_CONTACT_SUMMARY
    active: ActivePointers = Field(default_factory=ActivePointers)
    token_estimate: int = 0

    @property
    def is_fresh(self) -> bool:
        return self.refreshed_at is None


def estimate_tokens(text: str) -> int:
    """A cheap, deterministic token estimate (about four characters a token)."""
    return max(1, (len(text) + 3) // 4) if text else 0
