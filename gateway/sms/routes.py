"""Twilio SMS webhooks on the Serve ingress: bytes in, TwiML out. The logic is in SmsHandler."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar

from fastapi import APIRouter, Depends, Request, Response
from starlette.datastructures import ImmutableMultiDict

import spine.keys as keys
from actors import metrics
from gateway.channel_inbound import INTERACTION_HEADER, InboundOutcome
from gateway.context import GatewayContext, get_context
from gateway.errors import WebhookRejected
from gateway.inbound_log import InboundLog
from gateway.sms.inbound import MalformedWebhook, UnsupportedSender, parse_inbound
from gateway.sms.status import parse_status, record_status
from gateway.twilio.params import TwilioWebhook
from gateway.twilio.signature import IDEMPOTENCY_HEADER
from gateway.twilio.twiml_sms import TWIML_MEDIA_TYPE, render_twiml
from gateway.twilio.webhook import signed_form
from spine.context import Channel
from spine.events import emit_event
from spine.masking import mask_phones
from spine.records import EventKind, InboundMessage

T = TypeVar("T")
log = logging.getLogger("clara.sms")
router = APIRouter()

NOT_A_PHONE_REPLY = "Sorry, this line answers text messages from phone numbers only."


async def verified(request: Request, ctx: GatewayContext, parse: Callable[[ImmutableMultiDict], T],
                   webhook: TwilioWebhook) -> T:
    """A webhook Twilio signed for this public URL, parsed; or WebhookRejected (400 when it is
    signed but not the webhook `parse` reads)."""
    form = await signed_form(request, ctx.settings, webhook)
    try:
        return parse(form)
    except UnsupportedSender:
        raise
    except MalformedWebhook as exc:
        raise WebhookRejected(400, mask_phones(str(exc))) from exc


def _rejected(exc: WebhookRejected) -> Response:
    log.warning("sms webhook rejected %s: %s", exc.status, exc.reason)
    return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")


async def _unsupported_sender(ctx: GatewayContext, exc: UnsupportedSender) -> Response:
    """Recorded in the inbound log (masked) and answered with a clear refusal, never lost to a 400."""
    log.warning("sms %s refused: %s", exc.message_sid, exc)
    inbound = InboundLog(ctx.spine)
    record = InboundMessage(id=exc.message_sid, channel=Channel.SMS, from_address=exc.masked_from,
                            to_address=exc.to_address, body=exc.body, failure=str(exc))
    try:
        if await inbound.accept(record):
            await inbound.answered(record.model_copy(update={"failure": None}), NOT_A_PHONE_REPLY)
            await emit_event(ctx.spine, EventKind.UNSUPPORTED_SENDER, "sender_not_a_phone_number", channel=Channel.SMS,
                             address=None, property_id=None, interaction_id=None,
                             detail={"message_sid": exc.message_sid, "from": exc.masked_from, "why": str(exc)})
    except Exception:  # the refusal still goes out; the log line above has it
        log.exception("sms %s: the refused inbound could not be recorded", exc.message_sid)
    return Response(render_twiml([NOT_A_PHONE_REPLY]), media_type=TWIML_MEDIA_TYPE)


@router.post("/sms/twilio")
async def twilio_inbound(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    try:
        sms = await verified(request, ctx, parse_inbound, TwilioWebhook.INBOUND)
    except WebhookRejected as exc:
        metrics.inbound("sms", "rejected")
        return _rejected(exc)
    except UnsupportedSender as exc:
        return await _unsupported_sender(ctx, exc)
    if sms.primary_error:  # a redelivery of the MessageSid if the primary got as far as recording it
        log.warning("sms %s came to the fallback URL after Twilio's error %s at the primary",
                    sms.message_sid, sms.primary_error)
    reply = await ctx.sms.handle(sms)
    metrics.inbound("sms", reply.outcome)
    # An answered message is already on record twice (the inbound log's row, Serve's access
    # line), so its own line is debug; every other outcome is worth an operator's eye. A log
    # line through Serve's JSON handlers costs about 1 ms of the replica's CPU.
    log.log(logging.DEBUG if reply.outcome == InboundOutcome.ANSWERED else logging.INFO,
            "sms %s -> %s (%d part(s)) token=%s", sms.message_sid, reply.outcome, len(reply.messages),
            request.headers.get(IDEMPOTENCY_HEADER, "-"))
    headers = {INTERACTION_HEADER: reply.interaction_id} if reply.interaction_id else None
    return Response(render_twiml(reply.messages), media_type=TWIML_MEDIA_TYPE, headers=headers)


@router.post("/sms/twilio/status")
async def twilio_status(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    try:
        callback = await verified(request, ctx, parse_status, TwilioWebhook.STATUS)
    except WebhookRejected as exc:
        return _rejected(exc)
    token = request.headers.get(IDEMPOTENCY_HEADER)
    marker = keys.twilio_status_marker(token) if token else None
    try:
        if marker and await ctx.spine.is_marked(marker):
            return Response(status_code=204)  # a retried callback, already applied
        updated = await record_status(ctx.spine, callback)
        if marker:
            await ctx.spine.mark_once(marker)
    except Exception:  # a lost status is logged, never a 500 at Twilio
        log.exception("status %s for %s not recorded", callback.message_status, callback.message_sid)
        return Response(status_code=204)
    if updated is None:
        log.info("status %s for %s changed nothing", callback.message_status, callback.message_sid)
    return Response(status_code=204)
