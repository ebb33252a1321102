import pytest

from tests.actors.helpers import Clock, close_hosts


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture(autouse=True)
def _close_hosts():
    """Each test's hosts stop their sweepers (the event loop is shared by the session)."""
    yield
    close_hosts()
