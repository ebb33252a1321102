"""How a phone caller was verified, and the one-time codes of the step-up.

On voice the caller ID is not identity (it is trivially spoofed). A call counts as verified only
when Twilio's STIR/SHAKEN verdict for it was `TN-Validation-Passed-A`, or when the caller read back
a one-time code texted to the number on file during the call. Both leave a `CallVerification`
keyed by the call's interaction and bound to the Person it verified. A `StepUpChallenge` holds
only a salted hash of its code, never the code.
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


class StepUpChallenge(BaseModel):
    interaction_id: str
    person_id: str
    sent_to_last4: str | None
    salt: str
    code_hash: str
    expires_at: datetime
    tries_left: int
    created_at: datetime = Field(default_factory=utcnow)


class StepUpWindow(BaseModel):
    """Codes sent to one Person within one rate-limit window."""

    person_id: str
    window: int
    sent: int = 0
