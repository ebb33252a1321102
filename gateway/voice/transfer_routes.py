"""Twilio's requests during a transfer, each Twilio-signed (unsigned or forged: 403):

- `POST /voice/transfer/{transfer_id}`: the call, redirected here, dials the current target;
- `POST /voice/transfer/{transfer_id}/whisper`: the person's leg hears who calls and why;
- `POST /voice/transfer/{transfer_id}/whisper/gather`: 1 connects, anything else hangs that leg up;
- `POST /voice/transfer/{transfer_id}/result`: the `<Dial>` ended: the next target, or nobody left:
  an escalation filed at once and the caller back with Clara.

`?index=` names the target a request is about, so a retried request never moves a transfer twice."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from fastapi import APIRouter, Request
from fastapi.responses import Response

from desk.transfer.failed import file_escalation
from desk.transfer.progress import dial_ended, ring_next, whisper_answered
from desk.transfer.whisper import PASSED, PROMPT, whisper_text
from gateway.errors import WebhookRejected
from gateway.twilio.params import TwilioWebhook
from gateway.twilio.webhook import signed_form
from gateway.voice.routes import get_voice
from gateway.voice.services import VoiceServices
from gateway.voice.transfer_redirect import transfer_url
from gateway.voice.transfer_twiml import (
    SORRY,
    back_to_clara,
    connect_person,
    dial,
    say_and_hang_up,
    whisper,
)
from spine.store.base import StoreError
from spine.transfer import Transfer, TransferOutcome

log = logging.getLogger("clara.voice.transfer")
router = APIRouter()
TWIML = "application/xml"


@dataclass(frozen=True)
class TwilioAsks:
    """One of Twilio's signed requests about a transfer: its form, and the target it is about."""

    voice: VoiceServices
    transfer_id: str
    form: dict[str, str]
    index: int  # `?index=`: the target the request is about (-1 when absent or malformed)


Answer = Callable[[TwilioAsks], Awaitable[str]]


async def _signed_twiml(request: Request, transfer_id: str, answer: Answer) -> Response:
    """Every transfer route's one way in: the request Twilio-signed (unsigned, forged or re-cut:
    refused before anything is read), then `answer`'s TwiML; the store unavailable: an apology."""
    voice = get_voice(request)
    try:
        form = await signed_form(request, voice.settings, TwilioWebhook.VOICE)
    except WebhookRejected as exc:
        return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")
    try:
        return Response(await answer(TwilioAsks(voice, transfer_id, dict(form), _index(request))), media_type=TWIML)
    except StoreError as exc:
        log.warning("transfer %s: store unavailable: %s", transfer_id, exc)
        return Response(say_and_hang_up(SORRY), media_type=TWIML)


def _index(request: Request) -> int:
    raw = request.query_params.get("index", "")
    return int(raw) if raw.isdigit() and len(raw) < 4 else -1


def _dial(voice: VoiceServices, transfer: Transfer) -> str:
    target = transfer.current
    assert target is not None
    base = transfer_url(voice.settings.public_url, transfer.id)
    return dial(target.phone, f"{base}/result?index={transfer.index}", f"{base}/whisper?index={transfer.index}")


async def _ring_or_return(voice: VoiceServices, transfer_id: str, form: dict[str, str]) -> str:
    transfer = await ring_next(voice.calls.spine, transfer_id)
    if transfer is None:
        return say_and_hang_up(SORRY)
    if transfer.outcome == TransferOutcome.RINGING and transfer.current is not None:
        return _dial(voice, transfer)
    if transfer.outcome == TransferOutcome.CONNECTED:
        return say_and_hang_up()
    return await _back_to_clara(voice, transfer, form)


async def _back_to_clara(voice: VoiceServices, transfer: Transfer, form: dict[str, str]) -> str:
    """Nobody took it: the escalation first (the caller may hang up any moment), then Clara."""
    spine = voice.calls.spine
    if transfer.outcome != TransferOutcome.FAILED:  # everyone left was being rung by a page
        transfer = await dial_ended(spine, transfer.id, transfer.index, "skipped") or transfer
    transfer = await file_escalation(spine, transfer)
    secret = voice.settings.twilio_auth_token
    assert secret is not None  # signed_form refuses every request while it is unset
    return back_to_clara(secret, voice.settings.public_url, form.get("CallSid", transfer.call_sid),
                         form.get("From", ""), form.get("To", ""), transfer.id)


@router.post("/voice/transfer/{transfer_id}")
async def transfer_call(request: Request, transfer_id: str) -> Response:
    return await _signed_twiml(request, transfer_id, _call)


@router.post("/voice/transfer/{transfer_id}/whisper")
async def transfer_whisper(request: Request, transfer_id: str) -> Response:
    return await _signed_twiml(request, transfer_id, _whisper)


@router.post("/voice/transfer/{transfer_id}/whisper/gather")
async def transfer_whisper_gather(request: Request, transfer_id: str) -> Response:
    return await _signed_twiml(request, transfer_id, _whisper_gather)


@router.post("/voice/transfer/{transfer_id}/result")
async def transfer_result(request: Request, transfer_id: str) -> Response:
    return await _signed_twiml(request, transfer_id, _result)


async def _call(asks: TwilioAsks) -> str:
    """The call, redirected here: dial the current target."""
    return await _ring_or_return(asks.voice, asks.transfer_id, asks.form)


async def _whisper(asks: TwilioAsks) -> str:
    """The person's leg: who calls and why, then 1 to accept."""
    spine = asks.voice.calls.spine
    transfer = await spine.get_transfer(asks.transfer_id)
    if transfer is None or transfer.outcome != TransferOutcome.RINGING or transfer.index != asks.index:
        return say_and_hang_up(SORRY)
    prop = await spine.get_property(transfer.property_id)
    words = await whisper_text(spine, transfer, prop.name if prop else transfer.property_id)
    gather = f"{transfer_url(asks.voice.settings.public_url, asks.transfer_id)}/whisper/gather?index={asks.index}"
    return whisper(words, PROMPT, gather)


async def _whisper_gather(asks: TwilioAsks) -> str:
    """Their key: 1 connects (an empty answer: Twilio bridges the legs), anything else hangs up."""
    transfer = await whisper_answered(asks.voice.calls.spine, asks.transfer_id, asks.index,
                                      asks.form.get("Digits", ""))
    if transfer is not None and transfer.outcome == TransferOutcome.CONNECTED and transfer.accepted_index == asks.index:
        return connect_person()
    return say_and_hang_up(PASSED)


async def _result(asks: TwilioAsks) -> str:
    """The `<Dial>` ended: over, the next target, or nobody left and the caller back with Clara."""
    voice, form = asks.voice, asks.form
    transfer = await dial_ended(voice.calls.spine, asks.transfer_id, asks.index, form.get("DialCallStatus", ""))
    if transfer is None:
        return say_and_hang_up(SORRY)
    if transfer.outcome == TransferOutcome.CONNECTED:
        return say_and_hang_up()  # the call with the person is over
    if transfer.outcome == TransferOutcome.FAILED:
        return await _back_to_clara(voice, transfer, form)
    return await _ring_or_return(voice, asks.transfer_id, form)


__all__ = ["router"]
