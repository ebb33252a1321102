"""Fixtures of the email and Telegram tests (with and without Ray): module-scoped Mailgun and
Telegram Bot API stand-ins (each test module gets its own servers, and a test reads what its own
turns sent), and `make_channels`, the gateway app in-process over the test's store with those
stand-ins as where the replies go."""
from __future__ import annotations

import pytest

from tests.support.channel_helpers import SECRET, Channels
from tests.support.gateway_helpers import GatewayClients, OfflinePool
from tests.support.mailgun_server import MailgunStandIn
from tests.support.telegram_server import TelegramStandIn


@pytest.fixture(scope="module")
def mailgun():
    with MailgunStandIn() as server:
        yield server


@pytest.fixture(scope="module")
def telegram():
    with TelegramStandIn() as server:
        yield server


@pytest.fixture
async def make_channels(spine, mailgun, telegram):
    """make_channels(pool=None, with_credentials=True, **settings) -> Channels (client, context,
    stand-ins); the real offline turn by default."""
    gateways = GatewayClients(spine, None)
    mailgun.requests.clear()
    telegram.requests.clear()

    async def make(pool=None, *, with_credentials: bool = True, **settings) -> Channels:
        values = dict(mailgun_signing_key=mailgun.signing_key, telegram_webhook_secret=SECRET)
        if with_credentials:
            values.update(mailgun_api_key=mailgun.api_key, mailgun_domain=mailgun.domain, mailgun_api_base=mailgun.url,
                          telegram_bot_token=telegram.token, telegram_api_base=telegram.url)
        values.update(settings)
        pool = pool or OfflinePool(spine)
        client, context = await gateways.open(pool, with_twilio=False, **values)
        return Channels(client=client, context=context, pool=pool, spine=spine, mailgun=mailgun, telegram=telegram)

    yield make
    for _, context in gateways.opened:
        await context.email.turns.drain()
        await context.telegram.turns.drain()
    await gateways.aclose()
