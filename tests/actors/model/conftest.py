"""Fixtures for the model layer: the Messages API stand-in and a backend pointed at it."""
from __future__ import annotations

import pytest

from actors.model.anthropic_backend import AnthropicBackend
from tests.support.anthropic_server import AnthropicStandIn


@pytest.fixture
def anthropic_server():
    with AnthropicStandIn(api_key="sk-test-standin") as server:
        yield server


@pytest.fixture
async def make_backend(anthropic_server):
    """A factory so each test picks its own timeout and retry budget."""
    made: list[AnthropicBackend] = []

    def make(**kwargs) -> AnthropicBackend:
        options = {"timeout_s": 2.0, "max_retries": 2, **kwargs}
        backend = AnthropicBackend(api_key="sk-test-standin", base_url=anthropic_server.url, **options)
        made.append(backend)
        return backend

    yield make
    for backend in made:
        await backend.aclose()
