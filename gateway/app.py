"""The Ray Serve ingress: one FastAPI app per replica over a GatewayContext.

`serve run ray_config.yaml` imports `gateway.app:build_app` with the application's `args:`;
each GatewayIngress replica opens the store, joins the PersonActor host pool and serves the
routes below. `create_app(context)` is the same app without Ray (tests drive it in-process).

The runtime (hosts and their settings) comes from the deployment's `user_config`, which Serve
hands to `reconfigure()` when a replica starts and again, without restarting the replica,
whenever `serve deploy` changes it: that is how operators resize the hosts live (see
actors.control.reconciler). A change to `args:` instead replaces the replicas.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field
from ray import serve
from ray.serve import Application

from actors import metrics
from actors.heap import settle_heap
from gateway.admin.routes import router as admin_router
from gateway.context import GatewayContext
from gateway.email.routes import router as email_router
from gateway.email.unsubscribe import router as unsubscribe_router
from gateway.health import router as health_router
from gateway.health import store_unavailable
from gateway.pms.buildium.webhook import router as buildium_router
from gateway.settings import GatewayArgs
from gateway.sms.routes import router as sms_router
from gateway.telegram.routes import router as telegram_router
from gateway.voice.oncall_routes import router as oncall_router
from gateway.voice.routes import router as voice_router
from gateway.voice.services import VoiceServices
from gateway.voice.transfer_routes import router as transfer_router
from spine.store import StoreError

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
    app.include_router(oncall_router)
    app.include_router(transfer_router)
    app.include_router(sms_router)
    app.include_router(email_router)
    app.include_router(unsubscribe_router)
    app.include_router(telegram_router)
    app.include_router(buildium_router)
    app.include_router(admin_router)
    app.include_router(health_router)
    app.add_exception_handler(StoreError, store_unavailable)
    return app


def create_app(context: GatewayContext) -> FastAPI:
    app = new_app()
    app.state.context = context
    return app


def log_through_serve() -> None:
    """The gateway's own loggers (`clara.*`: events, GC pauses, the SMS log) write through the
    handlers Serve gave this replica, so their lines land in the replica's JSON log with its
    deployment and replica fields, like Serve's own lines, instead of in raw worker files."""
    serve_logger, clara = logging.getLogger("ray.serve"), logging.getLogger("clara")
    for handler in serve_logger.handlers:
        if handler not in clara.handlers:
            clara.addHandler(handler)
    clara.setLevel(serve_logger.level or logging.INFO)
    clara.propagate = False


class IngressUserConfig(BaseModel):
    """The GatewayIngress `user_config` of ray_config.yaml: what `serve deploy` applies live."""

    model_config = ConfigDict(extra="forbid")

    runtime: dict[str, Any] = Field(default_factory=dict)  # actors.config.RuntimeConfig, checked there


# Serve runs a replica's user code on a second event loop in its own thread by default, to shield
# Serve's control loop from blocking user code. Ours does not block: the model, Twilio and the
# hosts are awaited, and a SQLite statement that meets a lock sleeps on the loop instead of waiting
# inside SQLite (spine/store/sqlite.py). So it runs on the replica's own loop, and each request
# skips two cross-thread hand-offs, 0.5-0.8 ms of the replica's CPU per SMS turn here
# (bench/sms.py). ray_config.yaml repeats it: a `ray_actor_options` there replaces this one whole.
INGRESS_ENV = {"RAY_SERVE_RUN_USER_CODE_IN_SEPARATE_THREAD": "0"}

# The proxy already writes each request's access line (method, route, status, latency, request
# id: logs/serve/proxy_*.log); the replica's copy of it cost ~1 ms of the replica's CPU per SMS
# turn here (bench/sms.py), a tenth of what the replica spends. Lines the gateway itself logs keep
# the request id, so they still join the proxy's. A deployment's logging_config replaces the
# application's whole, so this repeats ray_config.yaml's encoding and level, and ray_config.yaml
# repeats this for its GatewayIngress (set `enable_access_log: true` there to have both lines).
INGRESS_LOGGING = {"encoding": "JSON", "log_level": "INFO", "enable_access_log": False}

# Defaults; ray_config.yaml's `deployments:` entry for GatewayIngress overrides any of them.
@serve.deployment(
    name="GatewayIngress",
    max_ongoing_requests=100,  # an open voice websocket holds one slot for its whole call
    autoscaling_config={"min_replicas": 1, "initial_replicas": 1, "max_replicas": 4,
                        "target_ongoing_requests": 32},
    ray_actor_options={"num_cpus": 0.25, "runtime_env": {"env_vars": INGRESS_ENV}},
    graceful_shutdown_timeout_s=30,
    logging_config=INGRESS_LOGGING,
)
@serve.ingress()
class GatewayIngress:
    async def __init__(self, args: dict[str, Any]) -> None:  # type: ignore[misc]  # Serve awaits an async constructor
        log_through_serve()
        metrics.count_events()
        self.args = GatewayArgs.model_validate(args)
        self.context: GatewayContext | None = None  # built by the first reconfigure()
        self.routes = new_app()
        self._reconfiguring = asyncio.Lock()

    def __serve_build_asgi_app__(self) -> FastAPI:
        return self.routes

    async def reconfigure(self, user_config: dict[str, Any]) -> None:
        """Serve calls this before the replica serves, and again on every `serve deploy` that
        changes the user_config: the first call starts the context on that runtime, later
        ones make the running hosts match it (no replica restart)."""
        from actors.config import RuntimeConfig

        runtime = IngressUserConfig.model_validate(user_config or {}).runtime
        async with self._reconfiguring:
            if self.context is None:
                self.context = await GatewayContext.start(self.args, runtime)
                self.routes.state.context = self.context
                # Built now, not by the first ringing phone: it imports the model SDKs (seconds
                # of CPU on a busy machine) and every request on the replica would wait for it.
                self.routes.state.voice = VoiceServices.from_context(self.context)
                settle_heap()
            else:
                config = RuntimeConfig.from_settings(self.context.settings, runtime)
                await self.context.pool.apply(config)
                log.info("runtime reconfigured live: %d hosts", config.hosts)

    async def check_health(self) -> None:
        if self.context is None:
            raise RuntimeError("no runtime: the GatewayIngress deployment needs a user_config")

    async def __del__(self) -> None:
        context = getattr(self, "context", None)  # absent when start-up failed
        if context is not None:
            await context.aclose()


def build_app(args: dict[str, Any]) -> Application:
    """Serve application builder. Bad args fail here, before any replica starts (`gateway
    check-config` runs the same validation, one line per problem). `args.runtime` becomes the
    deployment's default user_config; ray_config.yaml's own user_config wins."""
    parsed = GatewayArgs.model_validate(args or {})
    parsed.runtime_config()
    user_config = IngressUserConfig(runtime=parsed.runtime.model_dump(mode="json", exclude_unset=True)).model_dump(mode="json")
    # serve.ingress is typed as returning the class it wraps; serve.deployment made it a Deployment.
    return GatewayIngress.options(user_config=user_config).bind(parsed.to_args())  # type: ignore[attr-defined]
