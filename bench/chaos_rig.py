"""The gateway as deployed, on a private Ray, with every provider on a local stand-in: what
bench/chaos.py and bench/soak.py run their load against.

The real ray_config.yaml (two GatewayIngress replicas, detached PersonActor hosts, the
DispatcherActor and the reconciler), deployed the way `serve deploy` sends it, with this run's
store (SQLite, or DynamoDB on a moto server), `GATEWAY_MODEL=anthropic` pointed at the Anthropic
Messages API stand-in, and the Twilio, Mailgun and Telegram stand-ins. The model stand-in answers
as a small agent would: a first call that offers get_property_hours calls it, and every text it
writes repeats the tag of the caller's latest message; `overloaded_until` makes it answer 529.
"""
from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.chaos_load import TAG, Secrets

APP = "clara"
TWILIO_TOKEN, VOICE_TOKEN, TELEGRAM_SECRET, ANTHROPIC_KEY = "chaos-twilio", "chaos-voice", "chaos-telegram", "chaos-key"
ABANDONED_AFTER_S, SWEEP_EVERY_S = 30.0, 3.0


@dataclass
class ModelPolicy:
    """The stand-in's answer to each Messages API request (its `default_reply`)."""

    overloaded_until: float = 0.0
    answered: int = 0
    overloaded: int = 0

    def __call__(self, body: dict[str, Any]):
        from tests.support.anthropic_server import error, text, tool_use

        if time.monotonic() < self.overloaded_until:
            self.overloaded += 1
            return error(529, "Overloaded", retry_after_ms=None)
        self.answered += 1
        messages = body.get("messages") or []
        last = messages[-1]["content"] if messages else ""
        after_tool = isinstance(last, list) and any(b.get("type") == "tool_result" for b in last)
        tools = {t.get("name") for t in body.get("tools") or []}
        if not after_tool and "get_property_hours" in tools:
            return tool_use("get_property_hours", {}, id=f"toolu_{uuid.uuid4().hex[:12]}")
        tag = latest_tag(messages)
        return text(f"Thanks for your message [{tag}]. The office is open Mon-Fri 9am-6pm." if tag else "OK.")


def latest_tag(messages: list[dict[str, Any]]) -> str | None:
    for message in reversed(messages):
        if message.get("role") != "user":
            continue
        content = message["content"]
        texts = [content] if isinstance(content, str) else [b.get("text", "") for b in content if b.get("type") == "text"]
        for found in (TAG.findall(t) for t in reversed(texts)):
            if found:
                return found[-1]
    return None


@dataclass
class Rig:
    store: str  # sqlite | dynamodb
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="clara-chaos-")))
    namespace: str = field(default_factory=lambda: f"chaos-{uuid.uuid4().hex[:6]}")
    policy: ModelPolicy = field(default_factory=ModelPolicy)
    sms_phones: list[str] = field(default_factory=list)
    voice_phones: list[str] = field(default_factory=list)
    gate: Any = None  # DynamoDB: the port the gateway reaches moto through (closed = moto stopped)

    def start(self, sms_senders: int, voice_callers: int) -> Secrets:
        from tests.support.anthropic_server import AnthropicStandIn
        from tests.support.mailgun_server import MailgunStandIn
        from tests.support.ray_fixtures import private_ray_init
        from tests.support.telegram_server import TelegramStandIn
        from tests.support.twilio_server import TwilioStandIn

        self.twilio = TwilioStandIn(auth_token=TWILIO_TOKEN).start()
        self.mailgun = MailgunStandIn().start()
        self.telegram = TelegramStandIn().start()
        self.anthropic = AnthropicStandIn(api_key=ANTHROPIC_KEY).start()
        self.anthropic.default_reply = self.policy
        self.moto = None
        if self.store == "dynamodb":
            from bench.tcp_gate import TcpGate
            from tests.support.moto_server import AWS_ENV, REGION, start_moto_server

            os.environ.update(AWS_ENV)  # botocore signs every request; Ray's workers inherit them
            self.moto = start_moto_server()
            self.gate = TcpGate(int(self.moto.endpoint_url.rsplit(":", 1)[1]))
            self.store_url = f"dynamodb://clara-chaos-{uuid.uuid4().hex[:6]}?endpoint_url={self.gate.url}&region={REGION}"
        else:
            self.store_path = self.workdir / "clara.db"
            self.store_url = f"sqlite:///{self.store_path}"
        phones = list(asyncio.run(self._seed(sms_senders + voice_callers)))
        self.sms_phones, self.voice_phones = phones[:sms_senders], phones[sms_senders:]
        self.ray_temp = private_ray_init(num_cpus=4, tag="clara-chaos")
        url = self._deploy()
        return Secrets(url, TWILIO_TOKEN, self.twilio.account_sid, self.mailgun.signing_key, TELEGRAM_SECRET,
                       VOICE_TOKEN)

    async def _seed(self, tenants: int) -> dict[str, str]:
        from bench.sms import seed_tenants

        spine = self.spine()
        try:
            if self.store == "dynamodb":
                await spine.store.ensure_table()
            return await seed_tenants(spine, tenants)
        finally:
            await spine.store.close()

    def spine(self):
        from spine.repo import Spine
        from spine.store.url import open_store

        return Spine(open_store(self.store_url))

    def _deploy(self) -> str:
        from tests.support.resize_helpers import deploy_schema, serve_deploy
        from tests.support.serve_helpers import serve_http_port

        url = f"http://127.0.0.1:{serve_http_port()}"
        env = {"GATEWAY_STORE": self.store_url, "GATEWAY_MODEL": "anthropic", "ANTHROPIC_API_KEY": ANTHROPIC_KEY,
               "ANTHROPIC_BASE_URL": self.anthropic.url, "GATEWAY_PUBLIC_URL": url,
               "TWILIO_AUTH_TOKEN": TWILIO_TOKEN, "TWILIO_ACCOUNT_SID": self.twilio.account_sid,
               "TWILIO_API_BASE": self.twilio.url, "GATEWAY_VOICE_TOKEN": VOICE_TOKEN,
               "MAILGUN_SIGNING_KEY": self.mailgun.signing_key, "MAILGUN_API_KEY": self.mailgun.api_key,
               "MAILGUN_DOMAIN": self.mailgun.domain, "MAILGUN_API_BASE": self.mailgun.url,
               "TELEGRAM_BOT_TOKEN": self.telegram.token, "TELEGRAM_WEBHOOK_SECRET": TELEGRAM_SECRET,
               "TELEGRAM_API_BASE": self.telegram.url}
        runtime = {"namespace": self.namespace, "hosts": 2, "host_num_cpus": 0.1, "dispatcher_num_cpus": 0.1,
                   "lease_ttl_s": 10}
        schema = deploy_schema(app=APP, env=env, runtime=runtime, replicas=2)
        sms = schema.applications[0].args["sms"]
        sms.update(abandoned_after_s=ABANDONED_AFTER_S, sweep_every_s=SWEEP_EVERY_S)
        serve_deploy(schema)
        asyncio.run(self._running())
        return url

    async def _running(self, timeout_s: float = 240.0) -> None:
        from ray import serve

        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            status = serve.status().applications.get(APP)
            if status is not None and status.status == "RUNNING":
                return
            await asyncio.sleep(0.5)
        raise RuntimeError(f"{APP} did not start within {timeout_s:.0f}s: {serve.status()}")

    def stop(self, keep_logs: str | None = None) -> None:
        import ray

        for server in (self.twilio, self.mailgun, self.telegram, self.anthropic):
            server.stop()
        try:
            from ray import serve

            serve.shutdown()
        finally:
            ray.shutdown()
            if self.moto is not None:
                self.moto.stop()
            if keep_logs:
                shutil.copytree(Path(self.ray_temp) / "session_latest" / "logs", keep_logs, dirs_exist_ok=True)
            shutil.rmtree(self.ray_temp, ignore_errors=True)
            shutil.rmtree(self.workdir, ignore_errors=True)
