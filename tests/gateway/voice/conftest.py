"""Voice fixtures: the seeded store (root conftest), VoiceCalls whose sessions run on a PersonHost
in this process (an in-process Dispatcher, the offline model), and the voice routes in-process
(no Ray) over VoiceServices built on them."""
from __future__ import annotations

import httpx
import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from gateway.voice.services import VoiceServices
from tests.support.twilio_server import TwilioStandIn
from tests.support.voice_helpers import ACCOUNT, SECRET, client_for, in_process_calls, voice_app, voice_settings


@pytest.fixture
async def calls(spine):
    calls = in_process_calls(spine)
    yield calls
    await calls.drain()  # trace and event writes finish before the store closes


@pytest.fixture
async def services(spine):
    """The voice services on the default voice settings (a module overrides it for other settings)."""
    services = VoiceServices.build(voice_settings(), spine, Dispatcher(spine), OfflineModel())
    yield services
    await services.calls.drain()


@pytest.fixture
def twilio():
    with TwilioStandIn(account_sid=ACCOUNT, auth_token=SECRET) as server:
        yield server


@pytest.fixture
async def twilio_services(spine, twilio):
    """The voice services with Twilio's REST API on the stand-in (texts, a call's redirect)."""
    settings = voice_settings(twilio_account_sid=ACCOUNT, twilio_api_base=twilio.url)
    async with httpx.AsyncClient(timeout=5.0) as http:
        services = VoiceServices.build(settings, spine, Dispatcher(spine), OfflineModel(), http=http)
        yield services
        await services.calls.drain()


@pytest.fixture
async def client(services):
    async with client_for(voice_app(services)) as c:
        yield c
