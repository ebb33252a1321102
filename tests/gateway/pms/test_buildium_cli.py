"""`gateway buildium sync|link|status` as an operator runs them, against the Buildium stand-in."""
from __future__ import annotations

import asyncio

import pytest

import spine.keys as keys
from gateway.cli import main
from spine.store.sqlite import SqliteStore
from tests.support.buildium_helpers import small_account
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET, BuildiumStub


async def _number_owner(tmp_path, e164: str) -> str | None:
    store = SqliteStore(tmp_path / "clara.db")
    item = await store.get(keys.number(e164))
    await store.close()
    return item.data["property_id"] if item else None


@pytest.fixture
def stub():
    with BuildiumStub(small_account()) as s:
        yield s
        assert s.violations.found == []


@pytest.fixture
def env(monkeypatch, tmp_path, stub):
    monkeypatch.setenv("GATEWAY_STORE", f"sqlite:///{tmp_path}/clara.db")
    monkeypatch.setenv("BUILDIUM_CLIENT_ID", CLIENT_ID)
    monkeypatch.setenv("BUILDIUM_CLIENT_SECRET", CLIENT_SECRET)
    monkeypatch.setenv("BUILDIUM_API_BASE", stub.url)


def test_without_a_client_id_nothing_runs(monkeypatch, tmp_path, capsys, stub):
    monkeypatch.setenv("GATEWAY_STORE", f"sqlite:///{tmp_path}/clara.db")
    monkeypatch.delenv("BUILDIUM_CLIENT_ID", raising=False)
    assert main(["buildium", "sync"]) == 2
    assert "BUILDIUM_CLIENT_ID" in capsys.readouterr().err
    assert main(["buildium", "status"]) == 0
    assert "not configured" in capsys.readouterr().out
    assert stub.requests == []


def test_sync_twice_then_status(env, capsys):
    assert main(["buildium", "sync", "--dry-run"]) == 0
    assert "dry run: nothing written" in capsys.readouterr().out
    assert main(["buildium", "sync"]) == 0
    first = capsys.readouterr().out
    assert "people: 7 created" in first and "full sync: 9 requests" in first  # 6 lists, balances, renewals, appliances
    assert main(["buildium", "sync", "--full"]) == 0
    assert "residents: 0 created, 0 updated, 6 unchanged, 0 ended, 0 errors" in capsys.readouterr().out
    assert main(["buildium", "status"]) == 0
    status = capsys.readouterr().out
    assert "last full sync 20" in status and "0 errors" in status and "residents: 0 created" in status


def test_link_sets_the_property_number_and_a_sync_keeps_it(env, capsys, tmp_path):
    assert main(["buildium", "sync"]) == 0
    assert main(["buildium", "link", "101", "--phone", "+12535550190", "--timezone", "America/Denver"]) == 0
    assert "prop_buildium_rental-101" in capsys.readouterr().out
    assert main(["buildium", "sync", "--full"]) == 0
    assert "properties: 0 created, 0 updated, 2 unchanged" in capsys.readouterr().out
    assert asyncio.run(_number_owner(tmp_path, "+12535550190")) == "prop_buildium_rental-101"
    assert main(["buildium", "link", "101", "--phone", "12"]) == 2


def test_a_bad_record_exits_1(env, stub, capsys):
    stub.account.tenant(5005)["Email"] = "not-an-address"
    assert main(["buildium", "sync"]) == 1
    assert "people tenant-5005: email:" in capsys.readouterr().out
