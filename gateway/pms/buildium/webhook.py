"""POST /pms/buildium/webhook: Buildium's events (docs/pms.md).

Buildium signs each delivery: base64 of HMAC-SHA256, keyed by BUILDIUM_WEBHOOK_SECRET, over the
`buildium-webhook-timestamp` header, a period, and the body; a delivery unsigned, forged or older
than `TOLERANCE_S` (a replay) is 401. Buildium's events carry no id of their own, so the event id
is a digest of the signed body (its name, time, account and entity ids: the same on a retry). The
event is written durably (desk.pms.inbox) before the 2xx, worked right after on a background
task, and by the scheduler's tick if this process dies first. With BUILDIUM_CLIENT_ID unset the
route answers 404: nothing of Buildium runs."""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
import time
from datetime import datetime

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, ValidationError

from desk.pms import inbox
from gateway.context import GatewayContext, get_context
from gateway.pms.buildium.sync import SYSTEM
from spine.identity import utcnow

log = logging.getLogger("clara.buildium")
router = APIRouter()
TIMESTAMP, SIGNATURE = "buildium-webhook-timestamp", "buildium-webhook-signature"
TOLERANCE_S = 300  # Buildium's retries are new deliveries, each signed when sent
MAX_EVENT_BYTES = 16 * 1024  # an event is a few identifiers


class WebhookEvent(BaseModel):
    """Buildium's Event object: its name, time, account, and the entity's identifiers."""

    model_config = ConfigDict(extra="allow")
    EventName: str
    EventDateTime: datetime | None = None
    AccountId: int | None = None

    def ids(self) -> dict[str, int]:
        return {k: v for k, v in (self.model_extra or {}).items() if k.endswith("Id") and isinstance(v, int)}


def signature(secret: str, timestamp: str, body: bytes) -> str:
    signed = timestamp.encode() + b"." + body
    return base64.b64encode(hmac.new(secret.encode(), signed, hashlib.sha256).digest()).decode()


def verified(secret: str | None, timestamp: str | None, given: str | None, body: bytes, now: float) -> str | None:
    """Why the delivery is not Buildium's, or None."""
    if not secret:
        return "BUILDIUM_WEBHOOK_SECRET is not set, so no delivery can be verified"
    if not timestamp or not given:
        return f"unsigned: {TIMESTAMP} and {SIGNATURE} are required"
    try:
        sent = float(timestamp)
    except ValueError:
        return f"{TIMESTAMP} is not a UNIX time"
    if abs(now - sent) > TOLERANCE_S:
        return f"{TIMESTAMP} is more than {TOLERANCE_S} s away (a replay?)"
    if not hmac.compare_digest(signature(secret, timestamp, body).encode(), given.encode()):
        return f"{SIGNATURE} does not match"
    return None


def _refused(status: int, reason: str) -> Response:
    log.warning("buildium webhook refused %s: %s", status, reason)
    return Response(reason + "\n", status_code=status, media_type="text/plain")


async def _work(ctx: GatewayContext, record: inbox.InboxEvent) -> None:
    """After the answer: anything that stops it (the store down) leaves the event in the inbox,
    claimed, for the scheduler's tick once the claim is stale (desk.pms.inbox.CLAIM_S)."""
    assert ctx.buildium is not None
    try:
        await ctx.buildium.work_event(record)
    except Exception as exc:  # noqa: BLE001 - logged; the event is kept and worked again later
        log.warning("buildium event %s left for the scheduler: %s: %s", record.event_id, type(exc).__name__, exc)


@router.post("/pms/buildium/webhook", max_body_size=MAX_EVENT_BYTES)
async def buildium_webhook(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    if ctx.buildium is None:
        return Response(status_code=404)
    body = await request.body()
    why = verified(ctx.settings.buildium_webhook_secret, request.headers.get(TIMESTAMP),
                   request.headers.get(SIGNATURE), body, time.time())
    if why:
        return _refused(401, why)
    try:
        event = WebhookEvent.model_validate_json(body)
    except ValidationError as exc:
        return _refused(400, f"not a Buildium event: {exc.errors()[0]['msg']}")
    record = inbox.InboxEvent(system=SYSTEM, event_id=hashlib.sha256(body).hexdigest()[:32], name=event.EventName,
                              ids=event.ids(), received_at=utcnow())
    if not await inbox.accept(ctx.spine, record):  # StoreError: 503 (the app's handler); Buildium retries
        return JSONResponse({"outcome": "duplicate", "event_id": record.event_id})
    ctx.background(asyncio.create_task(_work(ctx, record)))
    return JSONResponse({"outcome": "accepted", "event_id": record.event_id})
