"""Fixtures for the gateway without Ray: the FastAPI app over a GatewayContext, driven
in-process through httpx, with the Twilio REST stand-in for late replies."""
from __future__ import annotations

import httpx
import pytest

from gateway.app import create_app
from gateway.context import GatewayContext
from gateway.sms.handler import SmsOptions
from tests.gateway.sms_support import ACCOUNT_SID, AUTH_TOKEN, PUBLIC_URL, settings_for
from tests.support.twilio_server import TwilioStandIn


@pytest.fixture
def twilio():
    with TwilioStandIn(account_sid=ACCOUNT_SID, auth_token=AUTH_TOKEN) as server:
        yield server


@pytest.fixture
async def make_gateway(spine, twilio):
    """make_gateway(pool, sms_options=..., **settings) -> (httpx client, GatewayContext)."""
    opened: list[tuple[httpx.AsyncClient, GatewayContext]] = []

    async def make(pool, *, sms_options: SmsOptions | None = None, with_twilio: bool = True, **settings):
        context = GatewayContext(settings_for(spine, twilio if with_twilio else None, **settings), spine, pool,
                                 sms_options=sms_options)
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url=PUBLIC_URL)
        opened.append((client, context))
        return client, context

    yield make
    for client, context in opened:
        await client.aclose()
        await context.sms.drain()
        await context.http.aclose()
