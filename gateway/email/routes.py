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
from gateway.email.handler import inbound_id
from gateway.email.inbound import MAX_EMAIL_BYTES, InboundEmail, MalformedEmail, parse_inbound
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


async def _replayed(ctx: GatewayContext, token: str, mail: InboundEmail) -> bool:
    """False for a token not used yet; True for a redelivery of a message already accepted under
    it (answered as a duplicate); WebhookRejected for a replay carrying another message. Read
    only: the token is marked used once the message is accepted (`_mark_used`), so a failure
    before that (a 503) leaves Mailgun's redelivery its way in."""
    try:
        if not await ctx.spine.is_marked(keys.mailgun_token_marker(token)):
            return False
        if await ctx.spine.get_inbound(inbound_id(mail.message_id)) is not None:
            return True
    except Exception as exc:
        raise InboundNotAccepted(str(exc)) from exc
    raise WebhookRejected(403, "token already used: a replayed Mailgun signature")


async def _mark_used(ctx: GatewayContext, token: str, mail: InboundEmail) -> None:
    """After the message is accepted. A mark that fails is logged: the message itself is safe
    (Message-Id dedupe); only a replay of its token would go unrefused."""
    try:
        await ctx.spine.mark_once(keys.mailgun_token_marker(token))
    except Exception:
        log.exception("email %s: its Mailgun token could not be marked used", mail.message_id)


def _rejected(exc: WebhookRejected) -> Response:
    log.warning("email webhook rejected %s: %s", exc.status, exc.reason)
    return Response(exc.reason + "\n", status_code=exc.status, media_type="text/plain")


@router.post("/email/inbound", max_body_size=MAX_EMAIL_BYTES)
async def mailgun_inbound(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    try:
        form = await _form(request)
        _verify(form, ctx.settings.mailgun_signing_key)
        try:
            mail = parse_inbound(form)
        except MalformedEmail as exc:
            raise WebhookRejected(400, str(exc)) from exc
        token = form["token"].strip()
        if await _replayed(ctx, token, mail):
            return JSONResponse({"outcome": "duplicate"})
        prop = await ctx.email.property_for(mail.recipients)
        if prop is None:
            return _rejected(WebhookRejected(406, f"no property receives mail at {', '.join(mail.recipients)}"))
        result = await ctx.email.handler.handle(mail, prop, on_accepted=lambda: _mark_used(ctx, token, mail))
    except WebhookRejected as exc:
        return _rejected(exc)
    except InboundNotAccepted as exc:
        log.error("email not accepted, Mailgun will retry: %s", exc)
        return Response("the store is unavailable; retry\n", status_code=503, media_type="text/plain")
    log.info("email %s -> %s (sender %s)", mail.message_id, result.outcome,
             "verified" if result.sender_verified else "unverified")
    headers = {INTERACTION_HEADER: result.interaction_id} if result.interaction_id else None
    return JSONResponse(result.model_dump(mode="json"), headers=headers)
