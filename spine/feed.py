"""The console's change feed record: one change to an escalation, a conversation or a work order,
kept in its property's and its org's feed (spine.repo.feed) for live pages to read."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field


class ChangeKind(StrEnum):
    ESCALATION = "escalation"
    CONVERSATION = "conversation"
    WORK_ORDER = "work_order"


class Change(BaseModel):
    position: str  # the sort key in the feed (`<at>#<id>`): the stream's event id
    kind: ChangeKind
    id: str  # the record's: an escalation id, a person id (conversation), a work order's display id
    property_id: str
    at: datetime
    detail: dict[str, str] = Field(default_factory=dict)  # e.g. a conversation's person and what moved
