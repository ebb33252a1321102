"""Fixtures shared by every test layer."""
from __future__ import annotations

import pytest

from desk.portfolio.demo import seed
from spine.repo import Spine
from spine.store.sqlite import SqliteStore


@pytest.fixture
async def spine(tmp_path) -> Spine:
    """A fresh SQLite store with the demo data."""
    s = Spine(SqliteStore(tmp_path / "clara.db"))
    await seed(s)
    yield s
    await s.store.close()

# Fixtures used by tests in more than one folder (a folder's own live in its conftest.py).
pytest_plugins = ["tests.support.ray_fixtures", "tests.support.moto_server", "tests.support.gateway_fixtures",
                  "tests.support.channel_fixtures", "tests.support.store_fixtures"]
