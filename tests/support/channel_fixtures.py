"""Module-scoped Mailgun and Telegram Bot API stand-ins for the email and Telegram tests (with and
without Ray); each test module gets its own servers, and a test reads what its own turns sent."""
from __future__ import annotations

import pytest

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
