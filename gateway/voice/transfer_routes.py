"""Twilio's requests during a transfer, each Twilio-signed (unsigned or forged: 403):

- `POST /voice/transfer/{transfer_id}`: the call, redirected here, dials the current target;
- `POST /voice/transfer/{transfer_id}/whisper`: the person's leg hears who calls and why;
- `POST /voice/transfer/{transfer_id}/whisper/gather`: 1 connects, anything else hangs that leg up;
- `POST /voice/transfer/{transfer_id}/result`: the `<Dial>` ended: the next target, or nobody left:
  an escalation filed at once and the caller back with Clara.

`?index=` names the target a request is about, so a retried request never moves a transfer twice."""
from __future__ import annotations

import logging

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


def _twiml(body: str) -> Response:
    return Response(body, media_type=TWIML)


async def _signed(request: Request) -> tuple[VoiceServices, dict[str, str]] | Response:
    voice = get_voice(request)
    try:
        form = await signed_form(request, voice.settings, TwilioWebhook.VOICE)
    except WebhookRejected as exc:
        return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")
    return voice, dict(form)


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
    signed = await _signed(request)
    if isinstance(signed, Response):
        return signed
    voice, form = signed
    try:
        return _twiml(await _ring_or_return(voice, transfer_id, form))
    except StoreError as exc:
        log.warning("transfer %s: store unavailable: %s", transfer_id, exc)
        return _twiml(say_and_hang_up(SORRY))


@router.post("/voice/transfer/{transfer_id}/whisper")
async def transfer_whisper(request: Request, transfer_id: str) -> Response:
    signed = await _signed(request)
    if isinstance(signed, Response):
        return signed
    voice, _ = signed
    spine = voice.calls.spine
    transfer = await spine.get_transfer(transfer_id)
    index = _index(request)
    if transfer is None or transfer.outcome != TransferOutcome.RINGING or transfer.index != index:
        return _twiml(say_and_hang_up(SORRY))
    prop = await spine.get_property(transfer.property_id)
    words = await whisper_text(spine, transfer, prop.name if prop else transfer.property_id)
    gather = f"{transfer_url(voice.settings.public_url, transfer_id)}/whisper/gather?index={index}"
    return _twiml(whisper(words, PROMPT, gather))


@router.post("/voice/transfer/{transfer_id}/whisper/gather")
async def transfer_whisper_gather(request: Request, transfer_id: str) -> Response:
    signed = await _signed(request)
    if isinstance(signed, Response):
        return signed
    voice, form = signed
    transfer = await whisper_answered(voice.calls.spine, transfer_id, _index(request), form.get("Digits", ""))
    if transfer is not None and transfer.outcome == TransferOutcome.CONNECTED \
            and transfer.accepted_index == _index(request):
        return _twiml(connect_person())
    return _twiml(say_and_hang_up(PASSED))


@router.post("/voice/transfer/{transfer_id}/result")
async def transfer_result(request: Request, transfer_id: str) -> Response:
    signed = await _signed(request)
    if isinstance(signed, Response):
        return signed
    voice, form = signed
    transfer = await dial_ended(voice.calls.spine, transfer_id, _index(request), form.get("DialCallStatus", ""))
    if transfer is None:
        return _twiml(say_and_hang_up(SORRY))
    if transfer.outcome == TransferOutcome.CONNECTED:
        return _twiml(say_and_hang_up())  # the call with the person is over
    if transfer.outcome == TransferOutcome.FAILED:
        return _twiml(await _back_to_clara(voice, transfer, form))
    return _twiml(await _ring_or_return(voice, transfer_id, form))


__all__ = ["router"]
