"""transfer_to_staff: a caller asks for a person on the phone (ARCHITECTURE.md "Voice: a caller
reaches a person").

The handler decides who is rung (desk.transfer.plan: the office in hours, else the on-call levels)
and writes the transfer; moving the live call is the channel's (gateway.voice.transfer_redirect:
Twilio's Calls API), which rewrites this result with what Twilio answered. So Clara says "I'm
connecting you" only when Twilio accepted the redirect, never on the strength of this record alone."""
from __future__ import annotations

import secrets
from typing import Literal

from pydantic import BaseModel, Field

from desk.transfer.plan import transfer_targets
from spine.context import Channel
from spine.identity import Person
from spine.transfer import CallMove, Transfer, TransferOutcome
from tools.handlers.base import HandlerContext, Tool, ToolFailure
from tools.schema import ToolInput

CALL_PREFIX = "voice-"  # a call's interaction id is voice-<CallSid> (actors.turn.call_opening)


class TransferIn(ToolInput):
    reason: str = Field(min_length=1, max_length=300, description="Why the caller wants a person, in a sentence")
    urgency: Literal["normal", "urgent", "emergency"] = "normal"


class TransferOut(BaseModel):
    transfer_id: str | None = None
    status: Literal["redirecting", "connecting", "not_connected", "nobody"]
    in_office_hours: bool = False
    targets: list[str] = Field(default_factory=list)  # who will be rung, in order
    message: str


async def transfer_to_staff(ctx: HandlerContext, args: TransferIn) -> TransferOut:
    caller = ctx.caller
    if caller.channel != Channel.VOICE or not caller.interaction_id.startswith(CALL_PREFIX):
        raise ToolFailure("a transfer moves a phone call; there is no call to move here")
    prop = await ctx.spine.get_property(caller.property_id)
    if prop is None:
        raise ToolFailure("this line's property is not known; offer to take a message instead")
    in_hours, targets = await transfer_targets(ctx.spine, prop, args.urgency)
    if not targets:
        return TransferOut(status="nobody", in_office_hours=in_hours, message=(
            "Nobody can be rung right now (no office line open and no on-call plan). Tell the caller honestly, "
            "and offer to take a message for the team (escalate_to_human)."))
    person = await _caller_person(ctx)
    transfer = Transfer(
        id=f"tr_{secrets.token_hex(8)}", call_sid=_call_sid(caller.interaction_id),
        interaction_id=caller.interaction_id, caller_person_id=caller.person_id,
        caller_number=(person.phones() or [""])[0] if person else "", property_id=prop.id, org_id=prop.org_id,
        reason=args.reason, urgency=args.urgency, in_office_hours=in_hours, targets=targets,
        outcome=TransferOutcome.PENDING)
    # Written before the redirect (Twilio's request for the TwiML reads it); transfer/started is
    # noted once the call is moved. The channel gets it as written, so the redirect leaves at once.
    ctx.call_moves.append(CallMove(transfer=transfer, version=await ctx.spine.create_transfer(transfer)))
    return TransferOut(transfer_id=transfer.id, status="redirecting", in_office_hours=in_hours,
                       targets=[t.label for t in targets],
                       message="The call is being moved; wait for the channel's answer before saying anything.")


async def _caller_person(ctx: HandlerContext) -> Person | None:
    """The caller as this turn's authority loaded them (load a fact once), else from the store."""
    person_id = ctx.caller.person_id
    if person_id is None:
        return None
    authority = ctx.caller.derived()
    if authority is not None and authority.person is not None and authority.person.id == person_id:
        return authority.person
    return await ctx.spine.get_person(person_id)


def _call_sid(interaction_id: str) -> str:
    """The live call's CallSid: `voice-<CallSid>`, or `voice-<CallSid>-<transfer>` for a caller back
    from a transfer (gateway.voice.transfer_return); a CallSid has no dash."""
    return interaction_id.removeprefix(CALL_PREFIX).split("-", 1)[0]


TOOLS = [
    Tool("transfer_to_staff", "Put the caller through to a person now (the office in office hours, else the "
         "on-call team), when they ask for a person or the matter needs one on the phone. Say you are "
         "connecting them only if the result says so.", TransferIn, transfer_to_staff),
]
