"""The admin app without Ray: create_app over a GatewayContext with an in-process pool."""
from __future__ import annotations

import pytest

from tests.support.gateway_helpers import GatewayClients


@pytest.fixture
async def make_admin(spine):
    """make_admin(pool, **settings) -> (httpx client, GatewayContext); no Twilio REST configured."""
    gateways = GatewayClients(spine, None)
    yield gateways.open
    await gateways.aclose()
