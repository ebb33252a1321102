"""A live call handed to a person: the transfer record (ARCHITECTURE.md "Voice: a caller reaches a
person").

`transfer_to_staff` writes one with its targets in order (the office line in office hours, else the
property's on-call people level by level); Twilio's requests to /voice/transfer/{id}/... then move
`index` along the targets, one `<Dial>` each, until someone presses 1 (`connected`) or nobody is left
(`failed`: an escalation is filed and the caller is back with Clara). A transfer is changed only by
compare-and-set on its version (spine/repo/transfers.py), so Twilio retrying a request moves it once."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, Field

from spine.identity import utcnow

Urgency = Literal["normal", "urgent", "emergency"]


class CallSummary(BaseModel):
    """What the voice platform's post-call analysis said of a call, for the console."""

    interaction_id: str
    summary: str = Field(max_length=4000)
    at: datetime = Field(default_factory=utcnow)


class TransferOutcome(StrEnum):
    PENDING = "pending"  # written; the call not redirected yet
    RINGING = "ringing"  # Twilio accepted the redirect; a target is being dialed
    CONNECTED = "connected"  # a person pressed 1: the caller is with them
    FAILED = "failed"  # nobody accepted (or the redirect was refused): escalation filed


class TargetKind(StrEnum):
    OFFICE = "office"
    ONCALL = "oncall"


class TransferTarget(BaseModel):
    kind: TargetKind
    phone: str  # E.164
    person_id: str | None = None  # None for the office line
    label: str  # "the leasing office", "Mike Torres (level 1)": for the trace, the console and Clara
    level: int | None = None  # the on-call level, from 1


class TransferAttempt(BaseModel):
    """One ring: which target, when, and how it ended (Twilio's DialCallStatus, or `accepted` /
    `declined` from the whisper's keypress)."""

    index: int
    at: datetime = Field(default_factory=utcnow)
    status: str = "ringing"


class Transfer(BaseModel):
    id: str
    call_sid: str
    interaction_id: str
    caller_person_id: str | None = None
    caller_number: str = ""
    property_id: str
    org_id: str = ""
    reason: str
    urgency: Urgency = "normal"
    in_office_hours: bool = False
    targets: list[TransferTarget] = Field(default_factory=list)
    index: int = 0  # the target being (or last) dialed
    outcome: TransferOutcome = TransferOutcome.PENDING
    attempts: list[TransferAttempt] = Field(default_factory=list)
    accepted_index: int | None = None  # whose whisper got the 1 (until the <Dial> result confirms it)
    redirect_status: int | None = None  # Twilio's HTTP status for the Calls update
    escalation_id: str | None = None  # filed when nobody accepted
    message: str = ""  # what the caller asked Clara to pass on, after the transfer failed
    created_at: datetime = Field(default_factory=utcnow)
    ended_at: datetime | None = None

    @property
    def current(self) -> TransferTarget | None:
        return self.targets[self.index] if 0 <= self.index < len(self.targets) else None


class CallMove(BaseModel):
    """A transfer its tool has just written, at `version`, handed on with the tool's result to the
    channel that moves the call (gateway.voice.transfer_redirect): the redirect leaves at once,
    without reading the transfer back, and records Twilio's answer by compare-and-set on this
    version. Only a fresh run carries one; a replayed result has none, so the channel reads."""

    transfer: Transfer
    version: int
