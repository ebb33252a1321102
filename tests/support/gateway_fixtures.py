"""Fixtures for the gateway without Ray: the FastAPI app over a GatewayContext, driven
in-process through httpx, with the Twilio REST stand-in for late replies."""
from __future__ import annotations

import pytest

from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, GatewayClients
from tests.support.twilio_server import TwilioStandIn


@pytest.fixture
def twilio():
    with TwilioStandIn(account_sid=ACCOUNT_SID, auth_token=AUTH_TOKEN) as server:
        yield server


@pytest.fixture
async def make_gateway(spine, twilio):
    """make_gateway(pool, sms_options=..., with_twilio=..., **settings) -> (httpx client, GatewayContext)."""
    gateways = GatewayClients(spine, twilio)
    yield gateways.open
    await gateways.aclose()
