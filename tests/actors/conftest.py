"""Fixtures of the actor tests: a settable clock, hosts that stop their sweepers, and the
dependencies of one offline interaction (seeded store, in-process Dispatcher, offline model)."""
from __future__ import annotations

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from actors.protocol.turn import TurnDeps
from tests.support.actor_helpers import Clock, close_hosts


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(autouse=True)
def _close_hosts():
    """Each test's hosts stop their sweepers (the event loop is shared by the session)."""
    yield
    close_hosts()


@pytest.fixture
def offline_deps(spine) -> TurnDeps:
    return TurnDeps(spine=spine, model=OfflineModel(), tools=Dispatcher(spine))
