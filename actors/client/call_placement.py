"""Where a call's ops go, as SMS's Placer places a text (actors.client.placement): the caller's
PersonActor when their number is a Person's claim, else the number's address actor. An unknown
caller's number is kept with the call (spine.verification.CallCaller) for its later ops, which
may arrive on another replica: the trace keeps only its last four digits."""
from __future__ import annotations

import logging
from typing import Any

from actors.protocol.keys import claimed_person
from actors.protocol.session import CallOpen
from actors.turn.call_opening import e164_or_raw
from spine.context import Channel
from spine.identity import utcnow
from spine.records import AgentTrace, last4
from spine.repo import Spine

log = logging.getLogger("clara.voice")


async def call_open(spine: Spine, caller_number: str, called_number: str, iid: str, *, verified: bool,
                    voice_prompt: str | None) -> CallOpen | None:
    """A call's opening op: the property the called number rings, the caller's Person by the
    number's claim (nobody's: their address actor, told the claim was just read). None: no
    property answers to the called number."""
    prop = await spine.property_for_number(e164_or_raw(called_number))
    if prop is None:
        log.warning("voice call %s to an unknown number ...%s", iid, last4(called_number))
        return None
    person_id = await claimed_person(spine, Channel.VOICE, caller_number)
    return CallOpen(person_id=person_id, property_id=prop.id, interaction_id=iid, caller_number=caller_number,
                    unclaimed_at=None if person_id else utcnow(), voice_prompt=voice_prompt, verified=verified)


async def whose_call(spine: Spine, trace: AgentTrace) -> dict[str, Any] | None:
    """Whose actor a recorded call's later op goes to (the op's fields): its participant's, else
    its number's. None: the number was never recorded."""
    base = {"property_id": trace.property_id, "interaction_id": trace.interaction_id}
    if trace.participant_id:
        return {**base, "person_id": trace.participant_id}
    caller = await spine.get_call_caller(trace.interaction_id)
    return {**base, "caller_number": caller.address} if caller is not None else None
