"""How a phone caller was verified, and the one-time codes of the step-up.

On voice the caller ID is not identity (it is trivially spoofed). A call counts as verified only
when Twilio's STIR/SHAKEN verdict for it was `TN-Validation-Passed-A`, or when the caller read back
a one-time code texted to the number on file during the call. Both leave a `CallVerification`
keyed by the call's interaction and bound to the Person it verified. A `StepUpChallenge` holds
only a salted hash of its code, never the code; it is keyed by the Person the code was sent to.
"""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from spine.identity import utcnow

STIR_VERIFIED = "TN-Validation-Passed-A"  # the only StirVerstat that counts


class VerificationMethod(StrEnum):
    STIR_SHAKEN = "stir_shaken"
    STEP_UP = "step_up"


class CallVerification(BaseModel):
    interaction_id: str
    person_id: str | None  # whom it verified; a verification never transfers to another Person
    method: VerificationMethod
    evidence: str  # the StirVerstat, or "one-time code to …1001"
    at: datetime = Field(default_factory=utcnow)


class CallCaller(BaseModel):
    """The number a call of no Person's came from (its caller ID: no identity, only where the
    call's later tool calls and its end go: that number's address actor, actors.client.placement)."""

    interaction_id: str
    address: str


class IssuedCode(BaseModel):
    """One one-time code texted to the number on file: its salted hash, never the code."""

    salt: str
    code_hash: str
    expires_at: datetime
    sent_to_last4: str | None
    requested_by: str  # the interaction that asked for it


class StepUpChallenge(BaseModel):
    """The codes texted to a Person's number on file that are still valid, newest last. They are the
    Person's, not the asking call's: whoever holds that phone reads one back on their own call, and
    a later request (a spoofer's too) never invalidates a code already sent."""

    person_id: str
    codes: list[IssuedCode] = Field(default_factory=list)
    tries: dict[str, int] = Field(default_factory=dict)  # answers per call since it last asked for a code
    total_tries: int = 0  # answers on every call since the latest code was sent

    def tries_on(self, interaction_id: str) -> int:
        return self.tries.get(interaction_id, 0)

    def valid(self, now: datetime) -> list[IssuedCode]:
        return [c for c in self.codes if c.expires_at > now]


class StepUpSends(BaseModel):
    """When codes were texted to one Person's number, newest last, kept for a day: the sliding windows
    of the send budget are counted from it."""

    person_id: str
    sent_at: list[datetime] = Field(default_factory=list)
