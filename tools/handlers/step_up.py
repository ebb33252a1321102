"""The voice step-up: text a one-time code to the number on file, check what the caller reads back.

The dispatcher owns both halves, so the code never passes through the model: `send_...` makes a
six-digit code, keeps only a salted hash of it in the store and hands the text to the channel
(`ToolResult.texts`; the gateway sends it at once, through the outbox row the one outbound check
wrote, desk.outbound.queue); `check_...` compares what the caller read back. A code
expires after CODE_TTL_S. Each call gets MAX_TRIES answers (again after it asks for a new code),
all calls together MAX_TRIES_TOTAL per code sent, then the codes are gone. The code is never
logged: traces keep the caller's answer masked (`redact_input`), the outbox keeps the text with the
code masked.

The budget, and why it cannot lock the real person out. Codes are texted to the number on file,
never to the caller ID, so the one thing a spoofer lacks is that phone. The budget protects it
from being flooded: at most SEND_LIMITS codes per Person in any sliding window (a few per 15
minutes, a daily cap), however the requests are spread across calls or window edges. A spoofer
can use the budget up, but not the codes: a code is the Person's (not the asking call's) and stays
valid when more are sent (the KEEP_CODES newest), so the real person, calling from their own phone,
reads back any code in their texts (the spoofer's requests sent them), and `send_...` with the
budget spent answers "read the code already sent" rather than "try later" while one is valid.
Wrong answers on the spoofer's call spend that call's tries (MAX_TRIES), not the real caller's.
MAX_TRIES_TOTAL bounds guessing across many calls: each code sent allows that many guesses at the
valid codes, at most 10 codes a day, so about 1 in 5,000 a day for a guesser who also needs a
call per MAX_TRIES guesses (and texts the real phone each time). A spoofer who spends those
guesses voids the codes: the real person then gets a new one once the window has room, or a
person from the team.
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from datetime import timedelta
from typing import Any

from pydantic import BaseModel, Field

import spine.keys as keys
from desk.outbound.queue import NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.identity import carries_authority, utcnow
from spine.records import OutboxMessage, last4
from spine.toolspec import OutboundText
from spine.verification import CallVerification, IssuedCode, VerificationMethod
from tools.handlers.base import HandlerContext, Tool, ToolFailure
from tools.schema import ToolInput
from tools.verification import STEP_UP_CHECK, STEP_UP_SEND

CODE_DIGITS = 6
CODE_TTL_S = 300
MAX_TRIES = 3  # answers per call
MAX_TRIES_TOTAL = 6  # answers on every call together, per code sent
KEEP_CODES = 3  # valid codes kept per Person (as many as one 15-minute window sends)
SEND_LIMITS: tuple[tuple[timedelta, int], ...] = ((timedelta(minutes=15), 3), (timedelta(days=1), 10))
SECRET_INPUTS: dict[str, tuple[str, ...]] = {STEP_UP_CHECK: ("code",)}


def redact_input(tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    """A tool's input as traces may keep it: secrets reduced to their last two characters."""
    secret = SECRET_INPUTS.get(tool)
    if not secret:
        return tool_input
    return {k: ("•" * max(len(str(v)) - 2, 0) + str(v)[-2:] if k in secret else v) for k, v in tool_input.items()}


def _hash(salt: str, code: str) -> str:
    return hmac.new(salt.encode(), code.encode(), hashlib.sha256).hexdigest()


def _on_the_phone(ctx: HandlerContext) -> None:
    if ctx.caller.channel != Channel.VOICE:
        raise ToolFailure("verification codes are only for phone calls")


class SendCodeIn(ToolInput):
    pass


class SendCodeOut(BaseModel):
    sent: bool = True
    sent_to: str
    expires_in_minutes: int
    message: str


async def send_verification_code(ctx: HandlerContext, args: SendCodeIn) -> SendCodeOut:
    _on_the_phone(ctx)
    spine, caller = ctx.spine, ctx.caller
    person = await spine.get_person(caller.person_id) if caller.person_id else None
    if not carries_authority(person):
        person = None  # a number whose Person carries no authority gets no code
    phones = person.phones() if person else []
    if person is None or not phones:
        raise ToolFailure("there is no account with a number on file for this caller, so no code can be sent; "
                          "offer a person from the team")
    prop = await spine.get_property(caller.property_id)
    if prop is None or not (prop.sms_number or prop.voice_number):
        raise ToolFailure("this property has no texting number, so no code can be sent; offer a person")
    now = utcnow()
    if (wait := await spine.take_step_up_send(person.id, now, SEND_LIMITS)) is not None:
        return await _budget_spent(ctx, person.id, phones[0], wait)
    code, salt = f"{secrets.randbelow(10 ** CODE_DIGITS):0{CODE_DIGITS}d}", secrets.token_hex(16)
    text = "Your Clara verification code is {}. It expires in {} minutes. Only say it to Clara on your call."
    minutes = CODE_TTL_S // 60
    row = await _queue_code_text(ctx, person.id, text.format("••••" + code[-2:], minutes))
    await spine.add_step_up_code(person.id, IssuedCode(
        salt=salt, code_hash=_hash(salt, code), expires_at=now + timedelta(seconds=CODE_TTL_S),
        sent_to_last4=last4(row.to_address), requested_by=caller.interaction_id), now, KEEP_CODES)
    ctx.texts.append(OutboundText(key=row.id, to=row.to_address, from_=row.from_address,
                                  body=text.format(code, minutes), logged_body=row.body))
    return SendCodeOut(sent_to=f"the number on file ending {last4(row.to_address)}", expires_in_minutes=minutes,
                       message=f"Ask the caller to read the {CODE_DIGITS}-digit code from the text, then check it.")


async def _budget_spent(ctx: HandlerContext, person_id: str, to: str, wait: timedelta) -> SendCodeOut:
    """No new code: the last one, if still valid, is what the caller reads back (it went to the
    number on file, whichever call asked for it)."""
    found = await ctx.spine.get_step_up(person_id)
    challenge = found[0] if found else None
    valid = challenge.valid(utcnow()) if challenge else []
    if (not valid or challenge is None or challenge.total_tries >= MAX_TRIES_TOTAL
            or challenge.tries_on(ctx.caller.interaction_id) >= MAX_TRIES):
        later = max(1, -(-int(wait.total_seconds()) // 60))
        raise ToolFailure(f"several codes were sent to this number recently; a new one can be sent in about {later} "
                          "minutes. Ask the caller to try again then, or offer a person from the team")
    left = max(1, int((valid[-1].expires_at - utcnow()).total_seconds() // 60))
    return SendCodeOut(sent=False, sent_to=f"the number on file ending {last4(to)}", expires_in_minutes=left,
                       message=f"No new code was sent: a code already texted to the number on file is still valid. "
                       f"Ask the caller to read the {CODE_DIGITS}-digit code from the latest text, then check it.")


async def _queue_code_text(ctx: HandlerContext, person_id: str, masked: str) -> OutboxMessage:
    """The code's text through the one outbound check (an SMS opt-out, a person who may not be
    reached) and into the outbox, with the code masked: the row is held while the gateway, which
    alone gets the code (`ctx.texts`), sends it at once; the outbox sender never sends it."""
    spine = ctx.spine
    queued = await queue_outbound(spine, OutboundRequest(
        key=keys.step_up_text(secrets.token_hex(6)), kind=NotificationKind.NOTIFY, recipient_person_id=person_id,
        property_id=ctx.caller.property_id, body=masked, channel=Channel.SMS, urgent=True, from_clara=False,
        not_before=spine.clock() + timedelta(seconds=CODE_TTL_S)))  # the gateway sends its own fixed text
    row = await spine.get_outbox(queued.outbox_id or "")
    if queued.status == NotificationStatus.BLOCKED or row is None:
        why = queued.reason or "it could not be queued"
        raise ToolFailure(f"no code can be sent to the number on file ({why}); offer a person from the team")
    return row


class CheckCodeIn(ToolInput):
    code: str = Field(min_length=4, max_length=16, pattern=r"^[0-9 .-]+$",
                      description="The digits the caller read back from the text")


class CheckCodeOut(BaseModel):
    verified: bool = True
    message: str


async def check_verification_code(ctx: HandlerContext, args: CheckCodeIn) -> CheckCodeOut:
    _on_the_phone(ctx)
    spine, caller = ctx.spine, ctx.caller
    iid = caller.interaction_id
    found = await spine.get_step_up(caller.person_id) if caller.person_id else None
    if found is None:
        raise ToolFailure(f"no code has been sent to this caller's number; offer to send one first ({STEP_UP_SEND})")
    challenge, version = found
    valid = challenge.valid(utcnow())
    if not valid or challenge.total_tries >= MAX_TRIES_TOTAL:
        await spine.delete_step_up(challenge.person_id)
        raise ToolFailure(f"that code is no longer valid; offer to send a new one ({STEP_UP_SEND})")
    if challenge.tries_on(iid) >= MAX_TRIES:
        raise ToolFailure(f"no tries are left on this call; offer a new code ({STEP_UP_SEND}) "
                          "or a person from the team")
    if not await spine.spend_step_up_try(challenge, version, iid):
        raise ToolFailure("that code was being checked at the same moment; ask the caller to say it once more")
    said = re.sub(r"\D", "", args.code)
    matched = next((c for c in valid if hmac.compare_digest(_hash(c.salt, said), c.code_hash)), None)
    if matched is None:
        left = min(MAX_TRIES - challenge.tries_on(iid), MAX_TRIES_TOTAL - challenge.total_tries) - 1
        if left <= 0:
            raise ToolFailure(f"that code does not match and no tries are left; offer a new code ({STEP_UP_SEND}) "
                              "or a person from the team")
        raise ToolFailure(f"that code does not match; {left} {'try' if left == 1 else 'tries'} left")
    await spine.delete_step_up(challenge.person_id)
    await spine.put_call_verification(CallVerification(
        interaction_id=iid, person_id=caller.person_id, method=VerificationMethod.STEP_UP,
        evidence=f"one-time code to …{matched.sent_to_last4}"))
    person = await spine.get_person(caller.person_id) if caller.person_id else None
    who = f" as {person.display_name}" if person else ""
    # Verified, the caller may now be named (the call's [CONTEXT] withheld it: actors/turn/call_opening.py).
    return CheckCodeOut(message=f"The caller is verified{who} for the rest of this call; try the request again.")


TOOLS = [
    Tool(STEP_UP_SEND, "Text a one-time code to the number on file for this caller, to verify them on this call "
         "(when a tool says it needs a verified caller). Ask first; never read the code out yourself.",
         SendCodeIn, send_verification_code),
    Tool(STEP_UP_CHECK, "Check the one-time code the caller read back from the text.", CheckCodeIn,
         check_verification_code),
]
