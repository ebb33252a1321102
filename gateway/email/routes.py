"""POST /email/inbound: Mailgun's `forward()` of a parsed message. The logic is in EmailHandler.

Mailgun reads the status code: 200 means received (no retry), 406 means rejected (no retry), any
other code is retried for 8 hours. So: a message accepted (or a redelivery of one) is 200; a
recipient no property receives mail at is 406; a store that cannot record the message is 503
(retry: nothing was accepted, nothing is lost); a forged, stale or replayed signature is 401/403
and a malformed form 400, neither of which runs a turn.
"""
from __future__ import annotations

import logging

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse

import spine.keys as keys
from gateway.channel_inbound import INTERACTION_HEADER
from gateway.context import GatewayContext, get_context
from gateway.email.inbound import MAX_EMAIL_BYTES, MalformedEmail, parse_inbound
from gateway.email.signature import signature_valid, stale
from gateway.errors import InboundNotAccepted, WebhookRejected

log = logging.getLogger("clara.email")
router = APIRouter()

_FORM_LIMITS = {"max_files": 100, "max_fields": 2000, "max_part_size": 8 * 1024 * 1024}


async def _form(request: Request) -> dict[str, str]:
    """The form's text fields (files, the attachments, are dropped unread), or 400."""
    try:
        form = await request.form(**_FORM_LIMITS)
    except Exception as exc:  # python-multipart's and Starlette's parse errors
        raise WebhookRejected(400, f"body is not a form Mailgun posts: {type(exc).__name__}: {exc}") from exc
    fields = {key: value for key, value in form.multi_items() if isinstance(value, str)}
    files = sum(1 for _, value in form.multi_items() if not isinstance(value, str))
    if files and not fields.get("attachment-count"):
        fields["attachment-count"] = str(files)
    await form.close()
    return fields


def _verify(form: dict[str, str], signing_key: str | None) -> None:
    timestamp, token, signature = (form.get(k, "").strip() for k in ("timestamp", "token", "signature"))
    if not (timestamp and token and signature):
        raise WebhookRejected(401, "missing timestamp, token or signature: Mailgun signs every route POST")
    if not signing_key:
        raise WebhookRejected(403, "MAILGUN_SIGNING_KEY is not set, so no Mailgun signature can be verified")
    if not signature_valid(signing_key, timestamp, token, signature):
        raise WebhookRejected(403, "signature does not match HMAC-SHA256(timestamp + token) with MAILGUN_SIGNING_KEY")
    if stale(timestamp):
        raise WebhookRejected(403, f"timestamp {timestamp[:20]} is too far from now: a replay, or a clock off")


async def _bind_token(ctx: GatewayContext, token: str, message_id: str) -> None:
    """Bind the token to the Message-Id of the first POST that carried it, whatever that POST's
    answer (200, 406, 400, 503). The same token with the same Message-Id is Mailgun retrying
    (the Message-Id dedupe answers it); with another, a captured signature carrying another
    message: 403. A store that cannot bind is a 503 (Mailgun retries, nothing was accepted)."""
    try:
        bound = await ctx.spine.bind_once(keys.mailgun_token_marker(token), message_id)
    except Exception as exc:
        raise InboundNotAccepted(str(exc)) from exc
    if bound != message_id:
        raise WebhookRejected(403, "token already used for another message: a replayed Mailgun signature")


def _unparsed_id(form: dict[str, str]) -> str:
    """What a malformed POST's token is bound to: it can carry no other message either."""
    return "malformed:" + (form.get("Message-Id") or form.get("message-id") or "").strip()[:200]


def _rejected(exc: WebhookRejected) -> Response:
    log.warning("email webhook rejected %s: %s", exc.status, exc.reason)
    return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")


@router.post("/email/inbound", max_body_size=MAX_EMAIL_BYTES)
async def mailgun_inbound(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    try:
        form = await _form(request)
        _verify(form, ctx.settings.mailgun_signing_key)
        token = form["token"].strip()
        try:
            mail = parse_inbound(form)
        except MalformedEmail as exc:
            await _bind_token(ctx, token, _unparsed_id(form))
            raise WebhookRejected(400, str(exc)) from exc
        await _bind_token(ctx, token, mail.message_id)
        prop = await ctx.email.property_for(mail.recipients)
        if prop is None:
            return _rejected(WebhookRejected(406, f"no property receives mail at {', '.join(mail.recipients)}"))
        result = await ctx.email.handler.handle(mail, prop)
    except WebhookRejected as exc:
        return _rejected(exc)
    except InboundNotAccepted as exc:
        log.error("email not accepted, Mailgun will retry: %s", exc)
        return Response("the store is unavailable; retry\n", status_code=503, media_type="text/plain")
    log.info("email %s -> %s (sender %s)", mail.message_id, result.outcome,
             "verified" if result.sender_verified else "unverified")
    headers = {INTERACTION_HEADER: result.interaction_id} if result.interaction_id else None
    return JSONResponse(result.model_dump(mode="json"), headers=headers)
