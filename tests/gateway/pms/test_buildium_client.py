"""The Buildium client against the stand-in: pages read by offset until X-Total-Count, 429s
retried, never past 10 requests a second, the secret in no log line."""
from __future__ import annotations

import logging
import time

import pytest

from desk.pms.buildium.records import Tenant
from gateway.pms.buildium.client import BuildiumClient, BuildiumError
from tests.support.buildium_helpers import small_account
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET, BuildiumStub


@pytest.fixture
def stub():
    with BuildiumStub(small_account()) as s:
        yield s
        assert s.violations.found == []


async def read_all(client: BuildiumClient) -> list[list[int]]:
    return [[t.Id for t in page] async for page, _ in client.pages("/v1/leases/tenants", Tenant)]


async def test_pages_by_offset_until_the_total(stub):
    client = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, page=3, rate_per_s=100)
    pages = await read_all(client)
    await client.aclose()
    assert pages == [[5001, 5002, 5003], [5004, 5005, 5006], [5007]]
    assert [p for _, p in stub.requests] == [f"/v1/leases/tenants?limit=3&offset={o}" for o in (0, 3, 6)]


async def test_a_429_is_retried_after_a_short_wait(stub):
    stub.throttle = 2
    client = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, retry_wait_s=0.05, rate_per_s=100)
    pages = await read_all(client)
    await client.aclose()
    assert sum(len(p) for p in pages) == 7 and client.throttled == 2 and len(stub.requests) == 3


async def test_retries_are_bounded(stub):
    stub.throttle = 100
    client = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, retry_wait_s=0.01, retries=3, rate_per_s=100)
    with pytest.raises(BuildiumError):
        await read_all(client)
    await client.aclose()
    assert len(stub.requests) == 4


async def test_never_past_ten_requests_a_second(stub):
    client = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, page=1)  # 7 pages, then again: 14 requests
    started = time.monotonic()
    for _ in range(2):
        await read_all(client)
    await client.aclose()
    assert stub.throttled == 0  # the stand-in's own 10/s bucket never refused one
    assert time.monotonic() - started >= 1.2  # 14 requests at 10 a second


async def test_the_secret_is_in_no_log_line(stub, caplog):
    caplog.set_level(logging.DEBUG)
    stub.throttle = 1
    client = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, retry_wait_s=0.01, rate_per_s=100)
    await read_all(client)
    bad = BuildiumClient(stub.url, CLIENT_ID, "wrong-secret", rate_per_s=100)
    with pytest.raises(BuildiumError) as failed:
        await read_all(bad)
    stub.violations.found.clear()  # the wrong secret is the point here
    await client.aclose()
    await bad.aclose()
    assert caplog.records and all(CLIENT_SECRET not in r.getMessage() for r in caplog.records)
    assert CLIENT_SECRET not in repr(client) and "wrong-secret" not in str(failed.value)
