"""The admin app without Ray: create_app over a GatewayContext with an in-process pool."""
from __future__ import annotations

import httpx
import pytest

from gateway.app import create_app
from gateway.context import GatewayContext
from tests.gateway.sms_support import PUBLIC_URL, settings_for


@pytest.fixture
async def make_admin(spine):
    """make_admin(pool, **settings) -> (httpx client, GatewayContext); no Twilio REST configured."""
    opened: list[tuple[httpx.AsyncClient, GatewayContext]] = []

    async def make(pool, **settings):
        context = GatewayContext(settings_for(spine, None, **settings), spine, pool)
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url=PUBLIC_URL)
        opened.append((client, context))
        return client, context

    yield make
    for client, context in opened:
        await client.aclose()
        await context.sms.drain()
        await context.http.aclose()
