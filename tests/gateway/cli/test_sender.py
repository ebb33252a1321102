"""`gateway sms`, `gateway email` and `gateway telegram` post what their provider would post and
print what the gateway answered; exit 0, 1 (refused or unreachable) or 2 (a secret is missing).
The gateway is a stand-in here that records what it received and answers as the routes do."""
from __future__ import annotations

import json

import pytest
from aiohttp import web

from gateway.channel_inbound import INTERACTION_HEADER
from gateway.cli import main
from gateway.telegram.wire import SECRET_HEADER
from gateway.twilio.signature import SIGNATURE_HEADER
from tests.support.threaded_server import Recording, ThreadedServer


class GatewayStandIn(ThreadedServer):
    name = "gateway stand-in"

    def __init__(self, status: int = 200) -> None:
        super().__init__()
        self.status, self.requests = status, Recording()

    def routes(self, app: web.Application) -> None:
        app.router.add_post("/sms/twilio", self.sms)
        app.router.add_post("/email/inbound", self.json_answer)
        app.router.add_post("/telegram/webhook", self.json_answer)

    async def sms(self, request: web.Request) -> web.Response:
        self.requests.add((request.path, dict(request.headers), dict(await request.post())))
        if self.status != 200:
            return web.Response(status=self.status, text="X-Twilio-Signature does not match\n")
        twiml = "<?xml version='1.0' encoding='UTF-8'?><Response><Message>on it</Message></Response>"
        return web.Response(text=twiml, content_type="application/xml", headers={INTERACTION_HEADER: "ix_1"})

    async def json_answer(self, request: web.Request) -> web.Response:
        body = await request.text()
        self.requests.add((request.path, dict(request.headers), body))
        answer = {"outcome": "answered", "reply": f"reply {len(self.requests.items)}", "interaction_id": "ix_2"}
        return web.json_response(answer, headers={INTERACTION_HEADER: "ix_2"})


@pytest.fixture
def gateway_env(monkeypatch):
    for name in ("TWILIO_AUTH_TOKEN", "MAILGUN_SIGNING_KEY", "TELEGRAM_WEBHOOK_SECRET"):
        monkeypatch.setenv(name, f"{name.lower()}-value")

    def serve(status: int = 200) -> GatewayStandIn:
        server = GatewayStandIn(status).start()
        monkeypatch.setenv("GATEWAY_PUBLIC_URL", server.url)
        return server

    servers = []
    yield lambda status=200: servers.append(serve(status)) or servers[-1]
    for server in servers:
        server.stop()


def test_sms_signs_the_form_and_prints_the_twiml_reply(gateway_env, capsys):
    server = gateway_env()
    assert main(["sms", "--from", "+12065551001", "the sink leaks"]) == 0
    [(_, headers, form)] = server.requests.items
    assert form["Body"] == "the sink leaks" and headers[SIGNATURE_HEADER]
    assert "Clara: on it" in capsys.readouterr().out


def test_a_refused_post_is_exit_1_with_the_gateways_reason(gateway_env, capsys):
    gateway_env(status=403)
    assert main(["sms", "--from", "+12065551001", "hi"]) == 1
    assert "HTTP 403: X-Twilio-Signature does not match" in capsys.readouterr().err


def test_a_missing_secret_is_exit_2_and_sends_nothing(gateway_env, monkeypatch, capsys):
    server = gateway_env()
    monkeypatch.delenv("MAILGUN_SIGNING_KEY")
    assert main(["email", "--from", "marcus@example.com", "hi"]) == 2
    assert "MAILGUN_SIGNING_KEY is not set" in capsys.readouterr().err and server.requests.items == []


def test_telegram_shares_the_contact_then_sends_the_text(gateway_env, capsys):
    server = gateway_env()
    assert main(["telegram", "--user-id", "5550001", "--contact", "+12065551001", "is the pool open?"]) == 0
    sent = [json.loads(body) for _, _, body in server.requests.items]
    assert "contact" in sent[0]["message"] and sent[1]["message"]["text"] == "is the pool open?"
    assert all(headers[SECRET_HEADER] == "telegram_webhook_secret-value" for _, headers, _ in server.requests.items)
    out = capsys.readouterr().out
    assert "Clara: reply 1" in out and "Clara: reply 2" in out


def test_an_unreachable_gateway_is_exit_1(gateway_env, monkeypatch, capsys):
    monkeypatch.setenv("GATEWAY_PUBLIC_URL", "http://127.0.0.1:9")
    assert main(["email", "--from", "marcus@example.com", "hi"]) == 1
    assert "cannot reach the gateway" in capsys.readouterr().err
