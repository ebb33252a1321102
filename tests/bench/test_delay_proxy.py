"""bench/delay_proxy.py: DynamoDB traffic passes through unchanged (botocore checks the body's
CRC32), every request held within the bounds, the waits a seeded sequence."""
from __future__ import annotations

import time
import uuid

from bench.delay_proxy import DelayProxy
from spine.store.base import Item
from spine.store.dynamodb import DynamoStore


async def test_dynamodb_requests_pass_through_each_held_within_the_bounds(moto_server):
    with DelayProxy(moto_server.endpoint_url, low_s=0.04, high_s=0.06, seed=1) as proxy:
        store = DynamoStore(table=f"t-{uuid.uuid4().hex[:8]}", endpoint_url=proxy.url, create_missing=True)
        try:
            await store.put(Item(pk="k", data={"v": "x" * 5000}))
            started = time.perf_counter()
            got = await store.get("k")
            took = time.perf_counter() - started
        finally:
            await store.close()
    assert got is not None and got.data == {"v": "x" * 5000}
    assert took >= 0.04
    assert proxy.delays and all(0.04 <= d <= 0.06 for d in proxy.delays)
    assert proxy.operations["CreateTable"] == 1 and proxy.operations["GetItem"] == 1
    assert sum(proxy.operations.values()) == len(proxy.delays)


def test_the_waits_are_a_seeded_sequence():
    one, same, other = (DelayProxy("http://127.0.0.1:1", seed=s) for s in (7, 7, 8))
    first = [one.next_delay() for _ in range(20)]
    assert first == [same.next_delay() for _ in range(20)]
    assert first != [other.next_delay() for _ in range(20)]
    assert all(0.010 <= d <= 0.030 for d in first) and len(set(first)) == 20
