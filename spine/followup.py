"""A follow-up: one message Clara starts later, kept in the store as a durable step (its due time,
purpose, the record it follows and what stops it), so a reminder survives any process dying.

`pending` until the scheduler's tick sends it (`sent`) or something stops it first (`stopped`: a
reply that answers it, a takeover, an opt-out, the record it follows changing). A step that asks
a question (a close-out's "is it fixed?") is answered within `answer_by`; after that, silence ends
it quietly. The item is indexed by status and due time (`FOLLOWUPS#<status>[#<shard>]`, due ISO +
id, over keys.FOLLOWUP_SHARDS shards), so the scheduler finds the due ones with one Query per shard
per tick, never a Scan; a pointer per person
(`FOLLOWUPSOF#<person>`) finds the ones a reply may answer.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from spine.identity import utcnow
from spine.notification import Purpose


class FollowUpStatus(StrEnum):
    PENDING = "pending"
    SENT = "sent"
    STOPPED = "stopped"


class FollowUpKind(StrEnum):
    TOUR_REMINDER_24H = "tour_reminder_24h"
    TOUR_REMINDER_2H = "tour_reminder_2h"
    TOUR_NO_SHOW = "tour_no_show"
    TOUR_APPLICATION = "tour_application"
    WORK_ORDER_CLOSEOUT = "work_order_closeout"
    RENEWAL_OFFER = "renewal_offer"


class Follows(StrEnum):
    """The kind of record a follow-up follows."""

    TOUR = "tour"
    WORK_ORDER = "work_order"
    RENEWAL = "renewal"


class StopOn(StrEnum):
    REPLY = "reply"  # the person wrote after `reply_since`
    TAKEOVER = "takeover"  # staff answer the conversation
    OPT_OUT = "opt_out"  # the one check refused it (an opt-out, a deceased or merged person)
    RECORD_CHANGED = "record_changed"  # a cancelled tour, a reopened work order, a renewal answered


class FollowUp(BaseModel):
    id: str  # stable per (record, step): planning twice writes one follow-up
    person_id: str
    property_id: str
    kind: FollowUpKind
    purpose: Purpose = Purpose.SERVICE
    due_at: datetime
    follows: Follows
    follows_id: str
    stop_on: list[StopOn] = Field(default_factory=lambda: list(StopOn))
    status: FollowUpStatus = FollowUpStatus.PENDING
    reply_since: datetime | None = None  # with StopOn.REPLY: a message from the person after this stops it
    answer_within_s: float | None = None  # a question: how long after sending an answer counts
    created_at: datetime = Field(default_factory=utcnow)
    created_by_interaction_id: str | None = None
    sent_at: datetime | None = None
    outbox_id: str | None = None
    stopped_reason: str | None = None
    answered_at: datetime | None = None
    moved: int = 0  # how often the contact window moved it later
    # Past this it would say something untrue ("your tour is tomorrow" on the day): stopped, not sent.
    expires_at: datetime | None = None

    def awaits_answer(self, now: datetime) -> bool:
        """Sent, asking a question, not yet answered, and still within its answer time."""
        if self.status != FollowUpStatus.SENT or self.answered_at is not None or self.sent_at is None:
            return False
        return self.answer_within_s is not None and (now - self.sent_at).total_seconds() < self.answer_within_s
