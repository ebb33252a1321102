"""The Ray Serve ingress: one FastAPI app per replica over a GatewayContext.

`serve run ray_config.yaml` imports `gateway.app:build_app` with the application's `args:`;
each GatewayIngress replica opens the store, joins the PersonActor host pool and serves the
routes below. `create_app(context)` is the same app without Ray (tests drive it in-process).
"""
from __future__ import annotations

import gc
import logging
import time
from typing import Any

from fastapi import FastAPI
from ray import serve
from ray.serve import Application

from gateway.admin.routes import router as admin_router
from gateway.context import GatewayArgs, GatewayContext
from gateway.email.routes import router as email_router
from gateway.sms.routes import router as sms_router
from gateway.telegram.routes import router as telegram_router
from gateway.voice.routes import router as voice_router

log = logging.getLogger("clara.gateway")

# Any request body past this is refused (413) unread; routes that expect less say so themselves.
MAX_BODY_BYTES = 1024 * 1024


def new_app() -> FastAPI:
    """The routes, in the order they are matched; the state (context, voice services) comes after."""
    # FastAPI's own OpenTelemetry is off: it asks for a tracer provider on every request, and
    # the gateway's request metrics come from Ray Serve (dashboard, /metrics).
    app = FastAPI(title="Clara gateway", docs_url=None, redoc_url=None, openapi_url=None,
                  telemetry={"tracing": False, "metrics": False, "logs": False}, max_body_size=MAX_BODY_BYTES)
    # Routes are matched in order: the callers' webhooks first (a ringing phone is waiting on
    # /voice/personalization), the admin pages last.
    app.include_router(voice_router)
    app.include_router(sms_router)
    app.include_router(email_router)
    app.include_router(telegram_router)
    app.include_router(admin_router)

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app


def create_app(context: GatewayContext) -> FastAPI:
    app = new_app()
    app.state.context = context
    return app


class GcPauseLog:
    """A `gc.callbacks` entry that logs collections pausing the replica for `threshold_s` or
    more: every caller on the replica waits them out."""

    def __init__(self, threshold_s: float = 0.02) -> None:
        self.threshold_s = threshold_s
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        elif (paused := time.perf_counter() - self._started) >= self.threshold_s:
            log.warning("garbage collection paused the replica %.0f ms (generation %d, %d objects collected)",
                        paused * 1000, info["generation"], info["collected"])


GC_PAUSE_LOG = GcPauseLog()


def settle_heap() -> None:
    """Put what start-up built (modules, the app, caches) out of the garbage collector's reach.
    Otherwise every full collection walks all of it, a 40-80 ms pause in the middle of a burst of
    ringing phones; frozen, a full collection walks only what requests made (1-3 ms). Pauses
    that still run long are logged."""
    gc.collect()
    gc.freeze()
    if GC_PAUSE_LOG not in gc.callbacks:
        gc.callbacks.append(GC_PAUSE_LOG)


# Defaults; ray_config.yaml's `deployments:` entry for GatewayIngress overrides any of them.
@serve.deployment(
    name="GatewayIngress",
    max_ongoing_requests=100,  # an open voice websocket holds one slot for its whole call
    autoscaling_config={"min_replicas": 1, "initial_replicas": 1, "max_replicas": 4,
                        "target_ongoing_requests": 32},
    ray_actor_options={"num_cpus": 0.25},
    graceful_shutdown_timeout_s=30,
)
@serve.ingress()
class GatewayIngress:
    async def __init__(self, args: dict[str, Any]) -> None:
        self.context = await GatewayContext.start(GatewayArgs.model_validate(args))
        settle_heap()

    def __serve_build_asgi_app__(self) -> FastAPI:
        return create_app(self.context)

    async def __del__(self) -> None:
        context = getattr(self, "context", None)  # absent when __init__ failed
        if context is not None:
            await context.aclose()


def build_app(args: dict[str, Any]) -> Application:
    """Serve application builder. Bad args fail here, before any replica starts."""
    from actors.config import RuntimeConfig

    parsed = GatewayArgs.model_validate(args or {})
    RuntimeConfig.from_settings(parsed.settings(), parsed.runtime)
    return GatewayIngress.bind(parsed.model_dump(mode="json"))
