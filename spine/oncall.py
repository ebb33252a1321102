"""On-call plans and pages: an escalation ladder kept in the store (PagerDuty's model).

CONTRACT (written before the work was split between two sessions; keep the names):
- `OnCallPlan` per property: ordered `levels` (each one or more Person ids), `ack_timeout_s`
  (default 300, 5..3600), `repeats` of the whole ladder (default 2, 0..9). A plan applies to pages
  started after it is set (it is copied onto the Page when the page starts).
- Spine methods (spine/repo_oncall.py, mixed into Spine): `put_oncall_plan(plan)`,
  `get_oncall_plan(property_id) -> OnCallPlan | None`, `clear_oncall_plan(property_id)`.
- A `Page` is the ladder's durable state: level index, pass number, next step due; every step it
  takes is keyed (page id, pass, level) so a step is sent once whoever drives it.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field, field_validator

from spine.identity import utcnow

DEFAULT_ACK_TIMEOUT_S = 300
DEFAULT_REPEATS = 2
ACK_TIMEOUT_RANGE = (5, 3600)
REPEATS_RANGE = (0, 9)


class OnCallPlan(BaseModel):
    property_id: str
    levels: list[list[str]] = Field(min_length=1)  # level 1 first; each level's Person ids
    ack_timeout_s: int = Field(DEFAULT_ACK_TIMEOUT_S, ge=ACK_TIMEOUT_RANGE[0], le=ACK_TIMEOUT_RANGE[1])
    repeats: int = Field(DEFAULT_REPEATS, ge=REPEATS_RANGE[0], le=REPEATS_RANGE[1])
    updated_at: datetime = Field(default_factory=utcnow)

    @field_validator("levels")
    @classmethod
    def _no_empty_level(cls, levels: list[list[str]]) -> list[list[str]]:
        if any(not level for level in levels):
            raise ValueError("every level names at least one person")
        return levels


class PageStatus(StrEnum):
    PAGING = "paging"
    ACKNOWLEDGED = "acknowledged"
    EXHAUSTED = "exhausted"
    NONE = "none"  # no plan for the property (oncall/no-plan)
