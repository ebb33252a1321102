"""A store that is down, silent or locked surfaces as StoreUnavailable within its bound, never a hang."""
from __future__ import annotations

import socket
import sqlite3
import threading
import time
from collections.abc import Iterator

import pytest
from moto.server import ThreadedMotoServer

from spine.store import StoreError, StoreUnavailable, open_store
from spine.store.base import Item
from spine.store.dynamodb import DynamoStore
from spine.store.sqlite import SqliteStore

TIMEOUT_S = 0.5
# Not a latency check (those live in bench/): a hang means botocore's 60 s read timeout or none,
# so any bound well under that tells "gave up at our timeout" from "hung", even on a machine
# whose two cores are shared by several test sessions.
DEADLINE_S = TIMEOUT_S + 9.5


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP server that accepts connections and never says a word."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.1)
        while not stop.is_set():
            try:
                held.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield listener.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    listener.close()


async def _assert_unavailable_fast(op, *, match: str) -> StoreUnavailable:
    started = time.monotonic()
    with pytest.raises(StoreUnavailable, match=match) as info:
        await op
    elapsed = time.monotonic() - started
    assert elapsed < DEADLINE_S, f"took {elapsed:.2f}s"
    return info.value


@pytest.mark.usefixtures("moto_server")  # for its dummy AWS credentials
async def test_dynamodb_on_a_closed_port_is_unavailable_and_names_the_endpoint():
    endpoint = f"http://127.0.0.1:{_closed_port()}"
    store = DynamoStore(table="t", endpoint_url=endpoint, timeout_s=TIMEOUT_S)
    try:
        await _assert_unavailable_fast(store.get("PERSON#p_marcus"), match="127.0.0.1")
        await _assert_unavailable_fast(store.put(Item(pk="X", data={})), match="127.0.0.1")
    finally:
        await store.close()


@pytest.mark.usefixtures("moto_server")
async def test_dynamodb_that_accepts_and_never_answers_is_unavailable_within_the_bound(silent_server):
    store = DynamoStore(table="t", endpoint_url=f"http://127.0.0.1:{silent_server}", timeout_s=TIMEOUT_S)
    try:
        err = await _assert_unavailable_fast(store.query("PERSON#p_marcus"), match=str(silent_server))
        assert "0.5s" in str(err) or "timeout" in str(err).lower()
        await _assert_unavailable_fast(store.get("PERSON#p_marcus"), match=str(silent_server))
    finally:
        await store.close()


@pytest.mark.usefixtures("moto_server")
async def test_dynamodb_store_recovers_when_its_endpoint_comes_up():
    # A failed first open must leave nothing half-initialised: the same store works once the
    # server is listening on that port.
    port = _closed_port()
    # A closed port refuses at once, so the timeout only has to cover moto's first answers,
    # which take over 0.5 s when other test sessions share the CPUs.
    store = DynamoStore(table="recover", endpoint_url=f"http://127.0.0.1:{port}", timeout_s=5.0,
                        create_missing=True)
    with pytest.raises(StoreUnavailable):
        await store.get("X")
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        assert (await store.put(Item(pk="X", data={"ok": True}))).version == 1
        assert (await store.get("X")).data == {"ok": True}
    finally:
        await store.close()
        server.stop()


async def test_sqlite_locked_by_an_exclusive_transaction_is_unavailable_within_the_bound(tmp_path):
    path = tmp_path / "locked.db"
    store = SqliteStore(path, timeout_s=TIMEOUT_S)
    await store.put(Item(pk="SEQ#wo", data={"value": 1}))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    other.execute("UPDATE items SET version = version WHERE pk = 'SEQ#wo'")
    try:
        err = await _assert_unavailable_fast(store.put(Item(pk="SEQ#wo", data={"value": 2})), match="locked")
        assert str(path) in str(err)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert (await store.put(Item(pk="SEQ#wo", data={"value": 2}))).version == 2  # usable again
    await store.close()


async def test_sqlite_put_waits_out_a_lock_held_briefly_and_applies_once(tmp_path):
    """Another process's write transaction, shorter than the bound: the put waits (on the event
    loop, in short sleeps), then applies exactly once."""
    path = tmp_path / "busy.db"
    store = SqliteStore(path, timeout_s=5.0)
    await store.put(Item(pk="SEQ#wo", data={"value": 1}))
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN EXCLUSIVE")
    release = threading.Timer(0.2, lambda: other.execute("ROLLBACK"))
    release.start()
    try:
        assert (await store.put(Item(pk="SEQ#wo", data={"value": 2}))).version == 2
    finally:
        release.join()
        other.close()
    assert (await store.get("SEQ#wo")).data == {"value": 2}
    await store.close()


async def test_sqlite_store_in_a_directory_that_cannot_exist_is_unavailable(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(StoreUnavailable, match="a-file"):
        SqliteStore(blocker / "sub" / "clara.db", timeout_s=TIMEOUT_S)


async def test_sqlite_file_that_is_not_a_database_is_a_clear_store_error(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match=r"junk\.db"):
        SqliteStore(junk, timeout_s=TIMEOUT_S)


async def test_a_closed_sqlite_store_says_so(tmp_path):
    store = SqliteStore(tmp_path / "c.db", timeout_s=TIMEOUT_S)
    await store.close()
    with pytest.raises(StoreError, match="closed"):
        await store.get("X")


def test_an_unknown_store_url_is_a_clear_error():
    with pytest.raises(StoreError, match="unsupported GATEWAY_STORE"):
        open_store("postgres://localhost/clara")


def test_a_dynamodb_url_builds_a_dynamo_store():
    store = open_store("dynamodb://clara?endpoint_url=http://127.0.0.1:9&region=eu-west-1", timeout_s=1.5)
    assert isinstance(store, DynamoStore)
    assert (store.table, store.endpoint_url, store.region, store.timeout_s) == ("clara", "http://127.0.0.1:9", "eu-west-1", 1.5)
