"""A turn slower than the inline budget in a real Ray: the webhook is acknowledged with an empty
TwiML, the reply arrives at the Twilio REST stand-in, and Twilio's signed status callbacks come
back through Serve to the outbox. The turn is slow for a real reason: the gateway runs the
Anthropic backend against the Messages API stand-in, which answers after a scripted delay."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from gateway.cli.sms import send_sms
from spine.records import InboundStatus, OutboxStatus
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.anthropic_server import AnthropicStandIn, text
from tests.support.serve_helpers import deploy_gateway, seeded_store, serve_http_port, undeploy
from tests.support.twilio_server import TwilioStandIn

pytestmark = pytest.mark.ray

APP = "clara-sms-slow"
AUTH_TOKEN = "ray-slow-twilio-token"
SLOW_REPLY = "Thanks Marcus, a technician is on the way to unit 204."
MODEL_DELAY_S = 2.0
INLINE_BUDGET_S = 0.5


@pytest.fixture(scope="module")
async def store_path(tmp_path_factory):
    return await seeded_store(tmp_path_factory.mktemp("sms-slow"))


@pytest.fixture(scope="module")
def anthropic():
    with AnthropicStandIn(api_key="sk-slow-standin") as server:
        server.default_reply = lambda body: text(SLOW_REPLY, delay_s=MODEL_DELAY_S)
        yield server


@pytest.fixture(scope="module")
def twilio():
    with TwilioStandIn(auth_token=AUTH_TOKEN, callbacks=True, callback_statuses=("sent", "undelivered"),
                       callback_error_code="30003") as server:
        yield server


@pytest.fixture(scope="module")
def base_url(ray_session, store_path, anthropic, twilio):
    url = f"http://127.0.0.1:{serve_http_port()}"
    deploy_gateway(APP, env={"GATEWAY_STORE": f"sqlite:///{store_path}", "GATEWAY_MODEL": "anthropic",
                             "ANTHROPIC_API_KEY": "sk-slow-standin", "ANTHROPIC_BASE_URL": anthropic.url,
                             "TWILIO_AUTH_TOKEN": AUTH_TOKEN, "TWILIO_ACCOUNT_SID": twilio.account_sid,
                             "TWILIO_API_BASE": twilio.url, "GATEWAY_PUBLIC_URL": url},
                   sms={"inline_budget_s": INLINE_BUDGET_S}, runtime={"hosts": 1})  # one person: one host
    yield url
    undeploy(APP)


async def test_a_slow_turn_is_acknowledged_then_sent_by_rest(base_url, store_path, twilio):
    async with httpx.AsyncClient(timeout=30.0) as http:
        started = asyncio.get_running_loop().time()
        reply = await send_sms(http, base_url=base_url, auth_token=AUTH_TOKEN, from_="+12065551001",
                               body="my toilet is overflowing!", account_sid=twilio.account_sid)
        acked_in = asyncio.get_running_loop().time() - started
    assert reply.status_code == 200 and reply.messages == [] and acked_in < MODEL_DELAY_S
    sends = await asyncio.to_thread(twilio.wait_for_sends, 1, 30.0)
    assert [(s.to, s.form["From"]) for s in sends] == [("+12065551001", "+12065550100")]
    assert SLOW_REPLY in sends[0].body
    assert sends[0].form["StatusCallback"] == base_url + "/sms/twilio/status"

    callbacks = await asyncio.to_thread(twilio.wait_for_callbacks, 2, 30.0)
    assert [c.status for c in callbacks] == [204, 204]  # signed by the stand-in, verified by the gateway
    spine = Spine(SqliteStore(store_path))
    try:
        row = await spine.get_outbox(f"{reply.message_sid}-0")
        assert row.provider_id == sends[0].sid
        assert row.status == OutboxStatus.FAILED and "30003" in row.error  # the 'undelivered' callback
        inbound = await spine.get_inbound(reply.message_sid)
        assert inbound.status == InboundStatus.ANSWERED and SLOW_REPLY in inbound.reply
    finally:
        await spine.store.close()
