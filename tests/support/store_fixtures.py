"""Store fixtures for the spine and desk tests: every `store` test runs on SQLite and on DynamoDB (moto)."""
from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest

from desk.portfolio.demo import seed
from spine.repo import Spine
from spine.store.base import Store
from spine.store.dynamodb import DynamoStore
from spine.store.sqlite import SqliteStore
from tests.support.moto_server import REGION, MotoServer

BACKENDS = ["sqlite", "dynamodb"]


def make_store(kind: str, request: pytest.FixtureRequest, tmp_path, *, timeout_s: float = 5.0) -> Store:
    """A fresh, empty store of one backend: a new SQLite file, or a new table on the session's moto."""
    if kind == "sqlite":
        return SqliteStore(tmp_path / "clara.db", timeout_s=timeout_s)
    server: MotoServer = request.getfixturevalue("moto_server")
    return DynamoStore(table=f"clara-{uuid.uuid4().hex[:12]}", endpoint_url=server.endpoint_url,
                       region=REGION, timeout_s=timeout_s, create_missing=True)


@pytest.fixture(params=BACKENDS)
async def store(request, tmp_path) -> AsyncIterator[Store]:
    s = make_store(request.param, request, tmp_path)
    yield s
    await s.close()


@pytest.fixture(scope="session")
async def seeded_dynamodb(moto_server: MotoServer) -> AsyncIterator[Spine]:
    """One seeded DynamoDB table for the session: seeding moto takes about a second, too slow to
    repeat per test. Tests on it may add items under ids of their own, never change demo items."""
    spine = Spine(DynamoStore(table=f"seeded-{uuid.uuid4().hex[:8]}", endpoint_url=moto_server.endpoint_url,
                              region=REGION, create_missing=True))
    await seed(spine)
    yield spine
    await spine.store.close()


@pytest.fixture
async def seeded_sqlite(tmp_path) -> AsyncIterator[Spine]:
    spine = Spine(SqliteStore(tmp_path / "clara.db"))
    await seed(spine)
    yield spine
    await spine.store.close()


@pytest.fixture(params=BACKENDS)
def seeded(request) -> Spine:
    """The demo data on each backend (the `spine` fixture of tests/conftest.py is SQLite only).
    A plain fixture: it picks an async one by name, which an async fixture cannot do."""
    return request.getfixturevalue(f"seeded_{request.param}")


class WriterFirst:
    """A store where another writer gets in between a read and a write: before the first write of
    `key` through it, `meanwhile` runs (a turn writing the same record at that moment)."""

    def __init__(self, inner: Store, key: tuple[str, str], meanwhile) -> None:
        self.inner, self.key, self.meanwhile = inner, key, meanwhile

    async def put(self, item, *, expect_version: int | None = None):
        if (item.pk, item.sk) == self.key and self.meanwhile is not None:
            run, self.meanwhile = self.meanwhile, None
            await run()
        return await self.inner.put(item, expect_version=expect_version)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)
