"""The dispatcher's check of a phone caller's verification (the matrix's `verified_caller` column).

A call is verified by a `CallVerification` in the store for its interaction, bound to the Person
the gate re-derived: Twilio's STIR/SHAKEN A verdict recorded by the signed voice webhook, or a
step-up code checked by `check_verification_code`. Nothing the model, the PersonActor or a
header says counts. An ElevenLabs-native call (no verdict reaches us) starts unverified.
"""
from __future__ import annotations

from spine.repo import Spine
from spine.verification import CallVerification
from tools.caller import Caller
from tools.decide import Decision

STEP_UP_SEND = "send_verification_code"
STEP_UP_CHECK = "check_verification_code"
RULE = "verification"


async def call_verification(spine: Spine, caller: Caller) -> CallVerification | None:
    """The call's verification if it verified this very Person; None otherwise."""
    if caller.person_id is None:
        return None
    found = await spine.get_call_verification(caller.interaction_id)
    return found if found is not None and found.person_id == caller.person_id else None


async def unverified_refusal(spine: Spine, caller: Caller, tool: str) -> Decision | None:
    """None when the call is verified; else the refusal, worded for the agent to act on."""
    if await call_verification(spine, caller) is not None:
        return None
    why = (f"{tool} needs a verified caller on a phone call. Offer to text a one-time code to the number on "
           f"file ({STEP_UP_SEND}), then check the code the caller reads back ({STEP_UP_CHECK}) and try again.")
    return Decision(False, f"{RULE}: {why}", RULE, public=why)
