"""A person's conversation at one property, across channels, and who answers it (Clara, or a staff
member of that property who took it over). Written as messages happen, read by the staff console.

A conversation is (person, property): a tenant of Yale who once texted Beacon has two, and Beacon's
staff read and take over only Beacon's. A `ConversationMessage` is one thing said (by the person,
Clara or a staff member) on any channel; a conversation's messages are one partition, oldest first.
The `Conversation` head is one record per (person, property): when and on which channel they last
spoke there (a per-property index of recent conversations sorts by it) and the `Takeover` state, kept with the person in the store so it holds across host moves,
restarts and replicas. A takeover ends by hand-back, or by staff silence for `release_after_s`
(copied onto the state when it starts, so every reader judges it the same way without settings).
"""
from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, Field

from spine.context import Channel
from spine.identity import utcnow
from spine.records import TranscriptEntry

DEFAULT_IDLE_RELEASE_S = 1800.0
SAID_KEPT = 40  # what Clara reads back on resuming: the last this many things said while staff answered


class Author(StrEnum):
    PERSON = "person"
    CLARA = "clara"
    STAFF = "staff"


class Mode(StrEnum):
    CLARA = "clara"
    STAFF = "staff"


class ConversationMessage(BaseModel):
    id: str  # unique and stable per message: a retried turn rewrites it, never adds a second
    person_id: str
    property_id: str
    at: datetime = Field(default_factory=utcnow)
    channel: Channel
    author: Author
    staff_person_id: str | None = None
    text: str
    interaction_id: str | None = None
    unread: bool = False  # a person's message held while staff answer, until staff look


class Takeover(BaseModel):
    staff_person_id: str
    started_at: datetime = Field(default_factory=utcnow)
    last_staff_at: datetime = Field(default_factory=utcnow)
    release_after_s: float = DEFAULT_IDLE_RELEASE_S
    ended_at: datetime | None = None
    ended_by: str | None = None  # a staff Person id, or "idle"
    # What was said while staff answered (held inbound, staff messages): Clara's transcript on resuming.
    said: list[TranscriptEntry] = Field(default_factory=list)
    resumed: bool = False  # Clara has taken `said` into her transcript

    def active(self, now: datetime | None = None) -> bool:
        if self.ended_at is not None:
            return False
        return (now or utcnow()) - self.last_staff_at < timedelta(seconds=self.release_after_s)

    def idle_end(self) -> datetime:
        return self.last_staff_at + timedelta(seconds=self.release_after_s)

    def remember(self, entry: TranscriptEntry) -> None:
        self.said = [*self.said, entry][-SAID_KEPT:]


class Conversation(BaseModel):
    """The head of a person's conversation."""

    person_id: str
    property_id: str
    name: str | None = None
    roles: list[str] = Field(default_factory=list)
    last_channel: Channel | None = None
    last_at: datetime = Field(default_factory=utcnow)
    unread: int = 0
    takeover: Takeover | None = None
    # The earliest of the person's messages not answered yet: the reports' first response time runs
    # from it (kept here, as the head is written anyway, so an answer need not read the messages).
    waiting_since: datetime | None = None

    def heard(self, at: datetime) -> None:
        """The person said something at `at`: they wait for an answer from then, unless they already did."""
        if self.waiting_since is None or at < self.waiting_since:
            self.waiting_since = at

    def answered(self) -> datetime | None:
        """Someone answered (Clara, staff, or a call as it happened): since when the person had
        waited, None when they were not waiting."""
        since, self.waiting_since = self.waiting_since, None
        return since

    def mode(self, now: datetime | None = None) -> Mode:
        return Mode.STAFF if self.takeover is not None and self.takeover.active(now) else Mode.CLARA

    def staff_person_id(self, now: datetime | None = None) -> str | None:
        return self.takeover.staff_person_id if self.mode(now) == Mode.STAFF and self.takeover else None
