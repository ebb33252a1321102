"""Voice routes on the Serve ingress: ElevenLabs webhooks, Twilio's voice webhook and the media
bridge websocket. Each answers fast and never 500s at a caller, whatever its headers or body
hold; the logic is in actors.client.calls.

Who may call what: ElevenLabs' webhooks carry the static voice token (personalization, server
tools) or the `ElevenLabs-Signature` HMAC (post-call); Twilio's voice webhook and the stream's
websocket upgrade carry `X-Twilio-Signature`. The voice webhook also records Twilio's STIR/SHAKEN
verdict: `TN-Validation-Passed-A` verifies the caller for the tools that need it."""
from __future__ import annotations

import hmac
import logging
from typing import Any

from fastapi import APIRouter, BackgroundTasks, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import ValidationError
from starlette.requests import HTTPConnection

import gateway.voice.signature as el_signature
import spine.keys as keys
from actors.turn.call_opening import interaction_id_for
from gateway.errors import WebhookRejected
from gateway.twilio.params import TwilioWebhook
from gateway.twilio.signature import SETTINGS_HEADER, SIGNATURE_HEADER, signature_valid
from gateway.twilio.twiml_voice import ENDED_QUERY, call_ended, connect_stream, stream_parameters, stream_url
from gateway.twilio.webhook import signed_form
from gateway.untrusted import json_value
from gateway.voice.bridge import CallBridge
from gateway.voice.elevenlabs_wire import PersonalizationRequest, PostCallWebhook, ToolCallKey, ToolWebhookAnswer
from gateway.voice.payload import initiation_data
from gateway.voice.services import VoiceServices
from gateway.voice.sockets import StarletteTextSocket
from gateway.voice.suppression import (
    ALLOWED_TOOLS,
    TOOL_REFUSAL,
    suppressed_event,
    suppressed_initiation,
    suppressed_reason,
)
from gateway.voice.texts import CallTexts
from spine.context import Channel
from spine.events import emit_event
from spine.participants import resolve_participant
from spine.phone import InvalidPhoneNumber
from spine.records import AgentTrace, EventKind, TranscriptEntry
from spine.transfer import CallSummary
from spine.verification import STIR_VERIFIED, CallVerification, VerificationMethod

log = logging.getLogger("clara.voice")
router = APIRouter()

TOKEN_HEADER = "X-Clara-Voice-Token"
CALL_REFERENCES = ("interaction_id", "call_sid")
TWIML = "application/xml"
JSON = "application/json"
# Bodies past these are refused (413) before they are read whole: a personalization request is
# four short fields, a tool call a few parameters; a post-call report carries the transcript.
PERSONALIZATION_MAX_BYTES = 16 * 1024
TOOL_MAX_BYTES = 64 * 1024
POST_CALL_MAX_BYTES = 8 * 1024 * 1024
MAX_TOKEN_CHARS = 512  # a voice token longer than this is not ours (401, not a slow compare)


def get_voice(conn: HTTPConnection) -> VoiceServices:
    services = getattr(conn.app.state, "voice", None)
    if services is None:  # first voice request on this replica: build from its GatewayContext
        services = conn.app.state.voice = VoiceServices.from_context(conn.app.state.context)
    return services


def get_texts(conn: HTTPConnection) -> CallTexts:
    """Sends what a voice tool asks to text (the step-up code), over the replica's HTTP client."""
    texts = getattr(conn.app.state, "voice_texts", None)
    if texts is None:
        voice, context = get_voice(conn), getattr(conn.app.state, "context", None)
        http = context.http if context is not None else voice.http  # never a client nobody closes
        texts = conn.app.state.voice_texts = CallTexts.from_settings(voice.settings, voice.calls.spine, http)
    return texts


def _error(status: int, message: str) -> JSONResponse:
    log.warning("voice request rejected %s: %s", status, message)
    return JSONResponse({"error": message}, status_code=status)


def _token_ok(voice: VoiceServices, request: Request) -> str | None:
    """None when the static voice token matches; else why not."""
    expected = voice.settings.voice_token
    if not expected:
        return "GATEWAY_VOICE_TOKEN is not set, so no voice webhook can be authenticated"
    given = request.headers.get(TOKEN_HEADER) or request.headers.get("authorization", "").removeprefix("Bearer ")
    given = given.strip()
    if not given or len(given) > MAX_TOKEN_CHARS:
        return "voice token missing or wrong"
    # As bytes: compare_digest refuses non-ASCII str (a crafted header must be a 401, not a 500).
    same = hmac.compare_digest(given.encode("utf-8", "surrogateescape"), expected.encode())
    return None if same else "voice token missing or wrong"


@router.post("/voice/personalization", max_body_size=PERSONALIZATION_MAX_BYTES)
async def personalization(request: Request) -> Response:
    voice = get_voice(request)
    if why := _token_ok(voice, request):
        return _error(401, why)
    try:
        body = PersonalizationRequest.model_validate_json(await request.body())
    except ValidationError as exc:
        return _error(422, f"personalization body must be {{caller_id, agent_id, called_number, call_sid}}: "
                           f"{exc.errors()[0]['loc']} {exc.errors()[0]['msg']}")
    try:
        start = await voice.calls.start(caller_number=body.caller_id, called_number=body.called_number,
                                        call_sid=body.call_sid)
    except Exception:  # the phone is ringing: a bug here still gets the caller a working agent
        log.exception("personalization failed for call %s; answering with minimal context", body.call_sid)
        start = voice.calls.fallback_start(body.call_sid)
    if start.suppressed:  # spam: a person-free goodbye, as SMS sends no reply
        await suppressed_event(voice.calls.spine, "voice_personalization", property_id=start.property_id,
                               interaction_id=start.interaction_id)
        return Response(suppressed_initiation(start).model_dump_json(exclude_none=True), media_type=JSON)
    return Response(initiation_data(start).model_dump_json(exclude_none=True), media_type=JSON)


@router.post("/voice/tools/{tool_name}", max_body_size=TOOL_MAX_BYTES)
async def server_tool(tool_name: str, request: Request) -> Response:
    voice = get_voice(request)
    if why := _token_ok(voice, request):
        return _error(401, why)
    try:
        raw = await request.body()
        body: Any = json_value(raw) if raw else {}
    except ValueError:
        return _error(400, "tool webhook body must be a JSON object")
    if not isinstance(body, dict):
        return _error(400, "tool webhook body must be a JSON object")
    reference = {k: str(body.pop(k)) for k in CALL_REFERENCES if k in body}
    interaction_id = reference.get("interaction_id") or (
        interaction_id_for(reference["call_sid"]) if reference.get("call_sid") else None)
    if not interaction_id:
        return _error(400, "tool webhook needs the call reference (interaction_id or call_sid dynamic variable)")
    try:
        which = ToolCallKey.model_validate({k: body.pop(k) for k in ToolCallKey.model_fields if k in body})
    except ValidationError as exc:
        return _error(400, f"tool webhook {exc.errors()[0]['loc'][0]}: {exc.errors()[0]['msg']}")
    trace = await voice.calls.call_trace(interaction_id)  # waits for it to land (actors.client.calls RECORD_WAIT_S)
    if trace is None:
        return _error(403, f"no voice call {interaction_id!r} is on record")
    if tool_name not in ALLOWED_TOOLS and (refusal := await _suppressed_tool(voice, trace)):
        return JSONResponse(refusal.model_dump())
    result = await voice.calls.run_webhook_tool(interaction_id, tool_name, body, tool_call_id=which.tool_call_id,
                                                agent_turn=which.agent_turn, deliver=get_texts(request).deliver)
    if result is None:
        return _error(403, f"no voice call {interaction_id!r} is on record")
    answer = ToolWebhookAnswer(result=result.content or result.reason, is_error=result.is_error)
    return JSONResponse(answer.model_dump())


async def _suppressed_tool(voice: VoiceServices, trace: AgentTrace) -> ToolWebhookAnswer | None:
    """A spam or deceased number's call runs no tool (but escalation): a person-free refusal."""
    if trace.channel != Channel.VOICE or suppressed_reason(trace) is None:
        return None
    await suppressed_event(voice.calls.spine, "voice_tool", property_id=trace.property_id,
                           interaction_id=trace.interaction_id)
    return ToolWebhookAnswer(result=TOOL_REFUSAL, is_error=True)


@router.post("/voice/post-call", max_body_size=POST_CALL_MAX_BYTES)
async def post_call(request: Request, background: BackgroundTasks) -> Response:
    voice = get_voice(request)
    raw = await request.body()
    try:
        digest = el_signature.verify(voice.settings.elevenlabs_webhook_secret,
                                     request.headers.get(el_signature.SIGNATURE_HEADER), raw, now=voice.clock())
    except el_signature.SignatureRejected as exc:
        return _error(401, str(exc))
    try:
        event = PostCallWebhook.model_validate_json(raw)
    except ValidationError as exc:
        return _error(400, f"post-call body is not a post-call webhook: {exc.errors()[0]['msg']}")
    if not await voice.calls.spine.mark_once(keys.elevenlabs_webhook_marker(digest)):
        return _error(409, "this post-call webhook was already received (replay)")
    if event.type != "post_call_transcription":
        return JSONResponse({"status": "ignored", "type": event.type})
    data = event.data
    phone = data.metadata.phone_call
    interaction_id = str(data.conversation_initiation_client_data.dynamic_variables.get("interaction_id") or "")
    if interaction_id in ("", "none") and phone and phone.call_sid:
        interaction_id = interaction_id_for(phone.call_sid)
    if interaction_id in ("", "none"):
        return _error(422, "post-call webhook names no call of ours (no interaction_id variable, no call_sid)")
    # What was said by the caller and by the agent (ElevenLabs names no other speakers).
    transcript = [TranscriptEntry.model_validate({"role": t.role, "text": t.message.strip()}) for t in data.transcript
                  if t.role in ("user", "agent") and t.message and t.message.strip()]
    if data.analysis is not None and (summary := (data.analysis.transcript_summary or "").strip()):
        background.add_task(voice.calls.spine.put_call_summary,
                            CallSummary(interaction_id=interaction_id, summary=summary[:4000]))
    background.add_task(voice.calls.end_reported, interaction_id, transcript,
                        caller_number=phone.external_number if phone else None,
                        called_number=phone.agent_number if phone else None)
    return JSONResponse({"status": "accepted", "interaction_id": interaction_id})


@router.post("/voice/twiml")
async def twiml(request: Request) -> Response:
    voice = get_voice(request)
    ended = request.url.query == ENDED_QUERY
    try:
        form = await signed_form(request, voice.settings, TwilioWebhook.VOICE, check_names=not ended)
    except WebhookRejected as exc:
        return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")
    call_sid = form.get("CallSid", "")
    public = voice.settings.public_url
    if ended:
        return Response(call_ended(await voice.calls.failed(interaction_id_for(call_sid))), media_type=TWIML)
    verified = await _record_verdict(voice, call_sid, form.get("From", ""), form.get("StirVerstat", ""))
    secret = voice.settings.twilio_auth_token
    assert secret is not None  # signed_form refuses every request while it is unset
    params = stream_parameters(secret, call_sid, form.get("From", ""), form.get("To", ""), verified)
    return Response(connect_stream(public, f"{public}/voice/twiml?{ENDED_QUERY}", params), media_type=TWIML)


async def _record_verdict(voice: VoiceServices, call_sid: str, caller: str, verstat: str) -> bool:
    """Twilio's STIR/SHAKEN verdict, from its signed webhook: only A-level attestation that
    passed verifies the caller, and only the Person the number resolves to now. True when it did."""
    if verstat != STIR_VERIFIED:
        log.info("voice call %s: StirVerstat %r, caller unverified", call_sid, verstat[:40] or None)
        return False
    try:
        person_id = await resolve_participant(voice.calls.spine, Channel.VOICE, caller)
    except InvalidPhoneNumber:
        return False
    await voice.calls.spine.put_call_verification(CallVerification(
        interaction_id=interaction_id_for(call_sid), person_id=person_id, method=VerificationMethod.STIR_SHAKEN,
        evidence=verstat))
    return True


def _upgrade_signed(voice: VoiceServices, websocket: WebSocket) -> bool:
    """Twilio signs a stream's websocket upgrade over the stream URL, with no parameters."""
    url = stream_url(voice.settings.public_url)
    return signature_valid(voice.settings.twilio_auth_token, url, {}, websocket.headers.get(SIGNATURE_HEADER),
                           websocket.headers.get(SETTINGS_HEADER))


@router.websocket("/voice/twilio/stream")
async def twilio_stream(websocket: WebSocket) -> None:
    voice = get_voice(websocket)
    if not _upgrade_signed(voice, websocket):
        # Refused before the handshake completes (HTTP 403): no agent session is dialed.
        await emit_event(voice.calls.spine, EventKind.STREAM_REFUSED, "unsigned_upgrade", channel=Channel.VOICE,
                         address=None, property_id=None, interaction_id=None)
        await websocket.close(code=1008)
        return
    await websocket.accept()
    bridge = CallBridge(StarletteTextSocket(websocket), voice.calls, voice.endpoint,
                        secret=voice.settings.twilio_auth_token, texts=get_texts(websocket))
    reason = await bridge.run()
    log.info("voice stream ended: %s", reason)
