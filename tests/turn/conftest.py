"""Fixtures for one-interaction tests: a seeded store, an in-process Dispatcher, envelopes."""
from __future__ import annotations

import itertools

import pytest

from actors.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from actors.turn_types import TurnDeps
from spine.context import Channel
from spine.envelope import MessageEnvelope

_ids = itertools.count(1)

YALE = "+12065550100"


def envelope(from_address: str, body: str, *, to: str = YALE, property_id: str = "pf_yale",
             channel: Channel = Channel.SMS) -> MessageEnvelope:
    n = next(_ids)
    return MessageEnvelope(message_id=f"SM{n:032d}", interaction_id=f"ix_test_{n}", channel=channel,
                           from_address=from_address, to_address=to, body=body, property_id=property_id)


@pytest.fixture
def offline_deps(spine) -> TurnDeps:
    return TurnDeps(spine=spine, model=OfflineModel(), tools=Dispatcher(spine))
