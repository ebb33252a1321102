"""Voice fixtures: the seeded store (root conftest) and VoiceCalls over an in-process
Dispatcher and the offline model."""
from __future__ import annotations

import pytest

from actors.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from actors.voice_call import VoiceCalls


@pytest.fixture
async def calls(spine):
    calls = VoiceCalls(spine, Dispatcher(spine), OfflineModel())
    yield calls
    await calls.drain()  # trace and event writes finish before the store closes
