"""On-call plans and pages: an escalation ladder kept in the store (PagerDuty's model).

The promise every caller relies on:
- `OnCallPlan` per property: ordered `levels` (each one or more Person ids), `ack_timeout_s`
  (default 300, 5..3600), `repeats` of the whole ladder (default 2, 0..9). A plan applies to pages
  started after it is set (it is copied onto the Page when the page starts).
- Spine methods (spine/repo/oncall.py, mixed into Spine): `put_oncall_plan(plan)`,
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
# A page someone took stays among the pages its other people hold this long (a late ACK is told who
# has it); after that it leaves their list, so the list a page or an ACK reads stays short.
TAKEN_PAGE_KEPT_S = 3600.0


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


class PageVia(StrEnum):
    SMS = "sms"  # ACK by text
    CALL = "call"  # 1 on the paging call
    STAFF = "staff"  # acknowledged in the staff console


class Page(BaseModel):
    """One ladder: the plan as it was when the page started, where it stands, and what it is about.

    `step` counts the ladder's steps from 0: step s pages level `s % len(levels)` in pass
    `s // len(levels)`; the ladder has `len(levels) * (repeats + 1)` steps. `step` is the last
    step taken (-1 before the first) and `next_due` when the one after it (or exhaustion) is due."""

    id: str
    property_id: str
    org_id: str | None = None
    plan: OnCallPlan
    step: int = -1
    next_due: datetime = Field(default_factory=utcnow)
    status: PageStatus = PageStatus.PAGING
    code: str  # 4 digits, in the page's texts: `ACK <code>` names it when a person holds several
    reason: str  # what the page is about, e.g. "gas smell"
    unit: str | None = None  # the unit's number
    work_order_id: str | None = None  # the store id (wo_7)
    work_order_display_id: str | None = None  # WO-7
    escalation_id: str | None = None
    reporter_person_id: str | None = None
    language: str = "en"  # the reporter's, for what they are told
    paged_person_ids: list[str] = Field(default_factory=list)  # everyone paged so far, in order
    acknowledged_by: str | None = None
    acknowledged_via: PageVia | None = None
    acknowledged_at: datetime | None = None
    created_at: datetime = Field(default_factory=utcnow)

    @property
    def level(self) -> int:
        """The level paged last, from 0."""
        return self.step % len(self.plan.levels)

    @property
    def pass_number(self) -> int:
        """The pass through the ladder, from 0 (the first run) to `repeats`."""
        return self.step // len(self.plan.levels)

    @property
    def steps(self) -> int:
        return len(self.plan.levels) * (self.plan.repeats + 1)

    @property
    def is_open(self) -> bool:
        return self.status == PageStatus.PAGING
