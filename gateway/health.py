"""Liveness, readiness, and what a request meets when the store is down.

`/healthz` answers while the process serves HTTP at all (a liveness probe restarts the replica
when it does not). `/readyz` answers 200 only when the store answers within READY_STORE_S, and
says which model backend and channels are configured (never a secret, never a path); 503
otherwise, so a load balancer or KubeRay stops sending callers to a replica that cannot serve
them. Any route that meets a store failure it did not handle itself answers 503 with a message
instead of a bare 500.
"""
from __future__ import annotations

import asyncio
import logging

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse

import spine.keys as keys
from gateway.context import GatewayContext, get_context
from gateway.settings import Settings
from spine.store import StoreError
from spine.store.url import parse_store_url

log = logging.getLogger("clara.gateway")
router = APIRouter()
READY_STORE_S = 2.0
STORE_DOWN = "the store is unavailable; nothing was changed, try again shortly"


def channels(settings: Settings) -> dict[str, bool]:
    """Which channels can work with these settings (True: their credentials are set)."""
    return {
        "sms": bool(settings.twilio_auth_token),
        "voice": bool(settings.voice_token and settings.elevenlabs_webhook_secret),
        "email": bool(settings.mailgun_signing_key),
        "telegram": bool(settings.telegram_webhook_secret and settings.telegram_bot_token),
    }


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(ctx: GatewayContext = Depends(get_context)) -> JSONResponse:
    settings = ctx.settings
    body = {"store": parse_store_url(settings.store_url).kind, "store_ok": True, "model": settings.model,
            "channels": channels(settings)}
    try:
        await asyncio.wait_for(ctx.spine.store.get(keys.HEALTH_READY), READY_STORE_S)
    except (TimeoutError, StoreError) as exc:
        log.warning("readiness: store check failed: %s", str(exc) or "timed out")
        return JSONResponse({**body, "status": "unavailable", "store_ok": False}, status_code=503)
    return JSONResponse({**body, "status": "ready"})


async def store_unavailable(request: Request, exc: Exception) -> JSONResponse:
    """The app's handler for a StoreError no route caught: 503 and a message, logged once."""
    log.error("%s %s: store failed: %s", request.method, request.url.path, exc)
    return JSONResponse({"error": STORE_DOWN}, status_code=503, headers={"Retry-After": "5"})
