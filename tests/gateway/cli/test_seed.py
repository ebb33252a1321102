"""`gateway seed` loads the demo data idempotently: a second run, in a new process, changes no byte."""
from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

import aioboto3

from tests.support.cli_helpers import run_gateway
from tests.support.moto_server import REGION, MotoServer


def _seed(store_url: str) -> None:
    done = run_gateway("seed", store_url=store_url)
    assert done.returncode == 0, done.stderr
    assert "seeded demo data" in done.stdout


def _dump_sqlite(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as conn:
        return conn.execute("SELECT pk, sk, data, version, gsi1pk, gsi1sk FROM items ORDER BY pk, sk").fetchall()


async def _dump_dynamodb(server: MotoServer, table: str) -> list[tuple]:
    """Every attribute of every item, read straight from the table (not through the store)."""
    async with aioboto3.Session().client("dynamodb", endpoint_url=server.endpoint_url, region_name=REGION) as client:
        items: list[dict] = []
        async for page in client.get_paginator("scan").paginate(TableName=table, ConsistentRead=True):
            items += page["Items"]
    return sorted(tuple(sorted((k, repr(v)) for k, v in item.items())) for item in items)


async def test_seed_twice_leaves_sqlite_byte_identical(tmp_path):
    path = tmp_path / "seeded.db"
    _seed(f"sqlite:///{path}")
    first = _dump_sqlite(path)
    _seed(f"sqlite:///{path}")
    second = _dump_sqlite(path)
    assert len(first) > 50
    assert second == first
    assert {row[3] for row in second} == {1}  # nothing was rewritten, so no version moved


async def test_seed_twice_leaves_dynamodb_byte_identical(moto_server):
    table = f"seed-{uuid.uuid4().hex[:8]}"
    url = moto_server.store_url(table)
    _seed(url)
    first = await _dump_dynamodb(moto_server, table)
    _seed(url)
    assert len(first) > 50
    assert await _dump_dynamodb(moto_server, table) == first
