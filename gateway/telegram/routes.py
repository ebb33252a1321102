"""POST /telegram/webhook: Bot API updates. The logic is in TelegramHandler.

Telegram repeats any update not answered 2xx, so: an accepted update (or a redelivery) and an
update the bot does not act on are 200; a store that cannot record it is 503 (Telegram retries;
nothing was accepted, nothing is lost); a missing or wrong secret header is 401/403 and a body
that is not an Update 400, neither of which runs a turn.
"""
from __future__ import annotations

import hmac
import logging

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import ValidationError

from gateway.channel_inbound import INTERACTION_HEADER
from gateway.context import GatewayContext, get_context
from gateway.errors import InboundNotAccepted
from gateway.telegram.wire import SECRET_HEADER, Update

log = logging.getLogger("clara.telegram")
router = APIRouter()

MAX_UPDATE_BYTES = 256 * 1024  # an Update is a few KB; media arrive as file ids, not bytes


def _refused(status: int, reason: str) -> Response:
    log.warning("telegram webhook refused %s: %s", status, reason)
    return Response(reason + "\n", status_code=status, media_type="text/plain")


@router.post("/telegram/webhook", max_body_size=MAX_UPDATE_BYTES)
async def telegram_webhook(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    given, expected = request.headers.get(SECRET_HEADER), ctx.settings.telegram_webhook_secret
    if not given:
        return _refused(401, f"missing {SECRET_HEADER}: setWebhook's secret_token is required")
    if not expected:
        return _refused(403, "TELEGRAM_WEBHOOK_SECRET is not set, so no update can be authenticated")
    if not hmac.compare_digest(given.encode(), expected.encode()):
        return _refused(403, f"{SECRET_HEADER} does not match TELEGRAM_WEBHOOK_SECRET")
    try:
        update = Update.model_validate_json(await request.body())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "body"
        return _refused(400, f"not a Telegram Update: {where}: {first['msg']}")
    try:
        prop = await ctx.telegram.property()
        if prop is None:
            log.warning("telegram update %s: no property has this bot", update.update_id)
            return JSONResponse({"outcome": "ignored", "reason": "no property answers for this bot"})
        result = await ctx.telegram.handler.handle(update, prop)
    except InboundNotAccepted as exc:
        log.error("telegram update %s not accepted, Telegram will retry: %s", update.update_id, exc)
        return Response("the store is unavailable; retry\n", status_code=503, media_type="text/plain")
    log.info("telegram update %s -> %s", update.update_id, result.outcome)
    headers = {INTERACTION_HEADER: result.interaction_id} if result.interaction_id else None
    return JSONResponse(result.model_dump(mode="json"), headers=headers)
