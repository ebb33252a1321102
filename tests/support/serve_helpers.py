"""Serve helpers for the Ray tests: Serve on a free loopback port (once per Ray session), the
gateway application deployed on it with a test's store, tokens and stand-ins, and the session's
shared gateway application (the `serve_gateway` fixture of tests/support/ray_fixtures.py)."""
from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ray import serve

from desk.portfolio.demo import seed
from gateway.app import build_app
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.elevenlabs_server import AgentServer
from tests.support.mailgun_server import MailgunStandIn
from tests.support.ray_fixtures import free_port
from tests.support.telegram_server import TelegramStandIn
from tests.support.twilio_server import TwilioStandIn


async def seeded_store(directory: Path) -> Path:
    """A SQLite store file in `directory` with the demo data, closed for the replicas to open."""
    path = directory / "clara.db"
    spine = Spine(SqliteStore(path))
    await seed(spine)
    await spine.store.close()
    return path


def serve_http_port() -> int:
    """Start Serve's HTTP proxy on a free 127.0.0.1 port unless this Ray already runs Serve;
    either way, the port it actually listens on."""
    from ray.serve.context import _get_global_client

    client = _get_global_client(raise_if_no_controller_running=False)  # None: Serve not started yet
    if client is None:
        serve.start(http_options={"host": "127.0.0.1", "port": free_port()})
        client = _get_global_client()
    return client.http_config.port  # the proxy keeps the options it was first started with


def deploy_gateway(name: str, *, env: dict[str, str], route_prefix: str = "/", sms: dict[str, Any] | None = None,
                   runtime: dict[str, Any] | None = None) -> None:
    """Deploy the gateway as application `name` (blocks until it is RUNNING). Its actor pool
    lives in a namespace of its own and dies with the replica (not detached)."""
    runtime_args = dict(namespace=f"sms-{uuid.uuid4().hex[:8]}", hosts=2, host_num_cpus=0.1,
                        dispatcher_num_cpus=0.1, detached=False)
    runtime_args.update(runtime or {})
    app = build_app({"runtime": runtime_args, "sms": sms or {}, "env": env})
    serve.run(app, name=name, route_prefix=route_prefix)


def undeploy(name: str) -> None:
    serve.delete(name)


# The session's shared gateway application: its tokens, which the tests sign and authenticate with.
SHARED_APP = "clara-shared"
SHARED_NAMESPACE = "sms-shared"  # its actor pool's Ray namespace
SHARED_AUTH_TOKEN = "ray-twilio-token"
SHARED_ACCOUNT_SID = "AC" + "0" * 31 + "1"
SHARED_ADMIN_TOKEN = "ray-admin-token"
SHARED_VOICE_TOKEN = "ray-voice-token"
SHARED_TELEGRAM_SECRET = "ray-telegram-secret"


@dataclass
class SharedGateway:
    """The gateway on Serve over one seeded store, with every channel configured against the
    session's stand-ins. Tests on it talk to people of their own, or read only what they sent."""

    url: str
    store_path: Path
    twilio: TwilioStandIn
    mailgun: MailgunStandIn
    telegram: TelegramStandIn
    agent: AgentServer  # set its `script` before a call

    def spine(self) -> Spine:
        """A store handle of the test's own (close it): what the replicas read and write."""
        return Spine(SqliteStore(self.store_path))


@asynccontextmanager
async def shared_gateway(directory: Path) -> AsyncIterator[SharedGateway]:
    """Deploy SHARED_APP on route prefix `/` (blocks until it is RUNNING); it stays up until Ray
    shuts down at the end of the session."""
    store_path = await seeded_store(directory)
    url = f"http://127.0.0.1:{serve_http_port()}"
    with TwilioStandIn(account_sid=SHARED_ACCOUNT_SID, auth_token=SHARED_AUTH_TOKEN) as twilio, \
            MailgunStandIn() as mailgun, TelegramStandIn() as telegram:
        async with AgentServer() as agent:
            deploy_gateway(SHARED_APP, sms={"sweep_every_s": 0.5}, runtime={"namespace": SHARED_NAMESPACE}, env={
                "GATEWAY_STORE": f"sqlite:///{store_path}", "GATEWAY_MODEL": "offline", "GATEWAY_PUBLIC_URL": url,
                "GATEWAY_ADMIN_TOKEN": SHARED_ADMIN_TOKEN, "GATEWAY_VOICE_TOKEN": SHARED_VOICE_TOKEN,
                "TWILIO_AUTH_TOKEN": SHARED_AUTH_TOKEN, "TWILIO_ACCOUNT_SID": twilio.account_sid,
                "TWILIO_API_BASE": twilio.url, "ELEVENLABS_WS_URL": agent.url,
                "MAILGUN_SIGNING_KEY": mailgun.signing_key, "MAILGUN_API_KEY": mailgun.api_key,
                "MAILGUN_DOMAIN": mailgun.domain, "MAILGUN_API_BASE": mailgun.url,
                "TELEGRAM_BOT_TOKEN": telegram.token, "TELEGRAM_WEBHOOK_SECRET": SHARED_TELEGRAM_SECRET,
                "TELEGRAM_API_BASE": telegram.url})
            yield SharedGateway(url, store_path, twilio, mailgun, telegram, agent)
