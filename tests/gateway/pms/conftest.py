"""The Buildium stand-in, its client and a store synced from it."""
from __future__ import annotations

import pytest

from desk.pms.buildium.mapping import PropertyLink
from desk.pms.state import save_link
from gateway.pms.buildium.client import BuildiumClient
from gateway.pms.buildium.sync import SYSTEM, sync
from tests.support.buildium_helpers import small_account
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET, BuildiumStub
from tests.support.buildium_webhook_helpers import ALDER, ORG


@pytest.fixture
def stub():
    with BuildiumStub(small_account()) as s:
        yield s
        assert s.violations.found == []  # every test: 0 contract violations


@pytest.fixture
async def client(stub):
    c = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, retry_wait_s=0.05, rate_per_s=200, timeout_s=1.0)
    yield c
    await c.aclose()


@pytest.fixture
async def synced(spine, client):
    """The small account synced, rental 101 linked to the gateway's number."""
    await save_link(spine.store, SYSTEM, "101", PropertyLink(rental_id=101, phone=ALDER))
    run = await sync(spine, client, organization=ORG)
    assert run.report.errors == []
    return spine
