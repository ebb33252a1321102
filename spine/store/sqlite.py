"""Embedded SQLite backend: the default. WAL mode so several processes on one machine
(Serve replicas, PersonActor hosts) share one file safely."""
from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from spine.store.base import ABSENT, ConditionFailed, Item, StoreError, StoreUnavailable
from spine.store.codec import check_keys, pack_data, unpack_data

_SCHEMA = """
CREATE TABLE IF NOT EXISTS items (
    pk TEXT NOT NULL,
    sk TEXT NOT NULL,
    data BLOB NOT NULL,
    version INTEGER NOT NULL,
    gsi1pk TEXT,
    gsi1sk TEXT,
    PRIMARY KEY (pk, sk)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS items_gsi1 ON items (gsi1pk, gsi1sk);
"""

T = TypeVar("T")

# A locked statement is tried again after this pause, doubling up to the cap (with jitter).
LOCK_RETRY_FIRST_S = 0.0005
LOCK_RETRY_MAX_S = 0.004

_COLUMNS = "pk, sk, data, version, gsi1pk, gsi1sk"
_UPSERT = ("INSERT INTO items (pk, sk, data, version, gsi1pk, gsi1sk) VALUES (?, ?, ?, 1, ?, ?) "
           "ON CONFLICT (pk, sk) DO UPDATE SET data=excluded.data, version=items.version + 1, "
           "gsi1pk=excluded.gsi1pk, gsi1sk=excluded.gsi1sk")
# get_many and put_many take this many items per statement / transaction (SQLite's default
# limit is 32766 bound parameters; a transaction this size holds the write lock for milliseconds).
MANY_CHUNK = 500


def _database_path(path: Path, read_only: bool) -> tuple[str, bool]:
    """(what sqlite3.connect opens, whether it is a URI). Nothing is created but the file itself:
    a missing folder is a typo to report, and a read-only open needs the database to exist."""
    resolved = path.expanduser().resolve()
    if not resolved.parent.is_dir():
        raise StoreUnavailable(f"sqlite store {resolved}: the folder {resolved.parent} does not exist "
                               "(create it, or fix GATEWAY_STORE)")
    if not read_only:
        return str(resolved), False
    if not resolved.is_file():
        raise StoreUnavailable(f"no sqlite database at {resolved} (`gateway seed` creates it)")
    return f"{resolved.as_uri()}?mode=ro", True


def _row_to_item(row: tuple[Any, ...]) -> Item:
    pk, sk, data, version, gsi1pk, gsi1sk = row
    return Item(pk=pk, sk=sk, data=unpack_data(data), version=version, gsi1pk=gsi1pk, gsi1sk=gsi1sk)


class SqliteStore:
    def __init__(self, path: str | Path, *, timeout_s: float = 5.0, read_only: bool = False) -> None:
        self.timeout_s = timeout_s
        self.read_only = read_only
        # Waiting for a lock gives up before the caller's bound runs out, so the caller hears
        # "database is locked" (not a bare timeout).
        self._busy_s = timeout_s * 0.8
        if str(path) == ":memory:":
            # One shared in-memory database across this store's per-thread connections.
            self.path, self._uri = f"file:clara-mem-{id(self)}?mode=memory&cache=shared", True
        else:
            self.path, self._uri = _database_path(Path(path), read_only)
        self._local = threading.local()
        # Every per-thread connection, so close() releases them all, not just this thread's.
        self._conns: list[sqlite3.Connection] = []
        self._conns_lock = threading.Lock()
        self._closed = False
        self._keepalive = self._setup_conn()  # also keeps an in-memory database alive
        if read_only:
            if not self._keepalive.execute("SELECT 1 FROM sqlite_master WHERE name = 'items'").fetchone():
                raise StoreUnavailable(f"{self.path} is not a gateway database yet (`gateway seed` creates it)")
            return
        try:
            self._keepalive.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"cannot create the items table in sqlite store at {self.path}: {exc}") from exc

    def _setup_conn(self) -> sqlite3.Connection:
        """The connection that sets the database up (WAL mode is a property of the file, kept
        once set): it may wait for a lock, as several processes open one file as they start."""
        return self._open(self._busy_s, "PRAGMA journal_mode=WAL")

    def _conn(self) -> sqlite3.Connection:
        """This thread's connection. It never waits for a lock (busy_timeout 0): `_run` does the
        waiting, on the event loop, in short sleeps."""
        if self._closed:
            raise StoreError(f"sqlite store at {self.path} is closed")
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._open(0.0, "PRAGMA synchronous=NORMAL")  # per connection
        return conn

    def _open(self, busy_s: float, pragma: str) -> sqlite3.Connection:
        """A connection (the pragma skipped when read-only), kept for close()."""
        try:
            conn = sqlite3.connect(self.path, timeout=busy_s, isolation_level=None, uri=self._uri,
                                   check_same_thread=False)
            if not self.read_only:
                conn.execute(pragma)
        except sqlite3.Error as exc:
            raise StoreUnavailable(f"cannot open sqlite store at {self.path}: {exc}") from exc
        with self._conns_lock:
            self._conns.append(conn)
        return conn

    async def _run(self, what: str, fn: Callable[..., T], *args: Any) -> T:
        """Run inline on the event loop, on a connection that never waits for a lock; a
        statement that meets one is tried again after a short sleep, until the bound.

        A statement costs tens of microseconds where a thread hop costs several times that, and
        a turn makes dozens (in WAL mode reads never wait for a writer, and an uncontended
        autocommit write does not fsync). A writer holds the lock for about as long, so waiting
        a millisecond or two is enough: SQLite's own busy handler sleeps 1, 2, 5 ... 25, 50, 100
        ms in turn, and under steady writes from several processes a put waited 41 ms on average
        that way, 223 ms at worst (bench/sms.py). A statement that meets SQLITE_BUSY has not
        applied, so running it again is safe."""
        deadline = time.monotonic() + self._busy_s
        pause = LOCK_RETRY_FIRST_S
        while True:
            try:
                return fn(self._conn(), *args)
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise StoreUnavailable(f"sqlite {what} on {self.path} failed: {exc}") from exc
                if time.monotonic() + pause > deadline:
                    raise StoreUnavailable(f"sqlite {what} on {self.path} failed: {exc} "
                                           f"(still locked after {self._busy_s:.1f}s)") from exc
            except sqlite3.Error as exc:
                raise StoreError(f"sqlite {what} on {self.path} failed: {exc}") from exc
            await asyncio.sleep(pause * random.uniform(0.5, 1.5))  # jittered: writers do not retry in step
            pause = min(pause * 2, LOCK_RETRY_MAX_S)

    async def get(self, pk: str, sk: str = "_") -> Item | None:
        def op(conn: sqlite3.Connection) -> Item | None:
            row = conn.execute(f"SELECT {_COLUMNS} FROM items WHERE pk=? AND sk=?", (pk, sk)).fetchone()
            return _row_to_item(row) if row else None

        return await self._run("get", op)

    async def query(self, pk: str, sk_prefix: str = "", *, limit: int | None = None, descending: bool = False) -> list[Item]:
        return await self._select("pk", "sk", pk, sk_prefix, limit, descending)

    async def query_index(
        self, gsi1pk: str, sk_prefix: str = "", *, limit: int | None = None, descending: bool = False
    ) -> list[Item]:
        return await self._select("gsi1pk", "gsi1sk", gsi1pk, sk_prefix, limit, descending)

    async def _select(self, key_col: str, sort_col: str, key: str, prefix: str, limit: int | None,
                      descending: bool) -> list[Item]:
        if limit is not None and limit <= 0:
            return []  # SQLite reads LIMIT -1 as "no limit"; the protocol means none
        order = "DESC" if descending else "ASC"
        sql = (
            f"SELECT {_COLUMNS} FROM items WHERE {key_col}=? AND substr({sort_col}, 1, ?)=? "
            f"ORDER BY {sort_col} {order}, pk {order}, sk {order}"
        )
        params: tuple[str | int, ...] = (key, len(prefix), prefix)
        if limit is not None:
            sql += " LIMIT ?"
            params += (limit,)

        def op(conn: sqlite3.Connection) -> list[Item]:
            return [_row_to_item(r) for r in conn.execute(sql, params).fetchall()]

        return await self._run("query", op)

    async def put(self, item: Item, *, expect_version: int | None = None) -> Item:
        check_keys(item)
        blob = pack_data(item.data, f"({item.pk}, {item.sk})")

        def op(conn: sqlite3.Connection) -> Item:
            if expect_version is None:
                row = conn.execute(
                    "INSERT INTO items (pk, sk, data, version, gsi1pk, gsi1sk) VALUES (?, ?, ?, 1, ?, ?) "
                    "ON CONFLICT (pk, sk) DO UPDATE SET data=excluded.data, version=items.version + 1, "
                    "gsi1pk=excluded.gsi1pk, gsi1sk=excluded.gsi1sk RETURNING version",
                    (item.pk, item.sk, blob, item.gsi1pk, item.gsi1sk),
                ).fetchone()
            elif expect_version == ABSENT:
                row = conn.execute(
                    "INSERT INTO items (pk, sk, data, version, gsi1pk, gsi1sk) VALUES (?, ?, ?, 1, ?, ?) "
                    "ON CONFLICT (pk, sk) DO NOTHING RETURNING version",
                    (item.pk, item.sk, blob, item.gsi1pk, item.gsi1sk),
                ).fetchone()
            else:
                row = conn.execute(
                    "UPDATE items SET data=?, version=version + 1, gsi1pk=?, gsi1sk=? "
                    "WHERE pk=? AND sk=? AND version=? RETURNING version",
                    (blob, item.gsi1pk, item.gsi1sk, item.pk, item.sk, expect_version),
                ).fetchone()
            if row is None:
                raise ConditionFailed(f"conditional put on ({item.pk}, {item.sk}) lost")
            return item.model_copy(update={"version": row[0]})

        return await self._run("put", op)

    async def get_many(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Item]:
        found: dict[tuple[str, str], Item] = {}
        wanted = list(dict.fromkeys(keys))
        for start in range(0, len(wanted), MANY_CHUNK):
            chunk = wanted[start:start + MANY_CHUNK]
            # The keys as the outer loop (CROSS JOIN keeps that order), each a primary-key search:
            # `(pk, sk) IN (VALUES ...)` would scan the whole table once per chunk.
            sql = (f"SELECT {', '.join('items.' + c for c in _COLUMNS.split(', '))} FROM "
                   f"(VALUES {', '.join(['(?, ?)'] * len(chunk))}) AS k CROSS JOIN items "
                   "ON items.pk = k.column1 AND items.sk = k.column2")
            params = [part for key in chunk for part in key]

            def op(conn: sqlite3.Connection, sql: str = sql, params: list[str] = params) -> list[Item]:
                return [_row_to_item(r) for r in conn.execute(sql, params).fetchall()]

            found.update({(i.pk, i.sk): i for i in await self._run("get_many", op)})
        return found

    async def put_many(self, items: list[Item]) -> None:
        rows = []
        for item in items:
            check_keys(item)
            rows.append((item.pk, item.sk, pack_data(item.data, f"({item.pk}, {item.sk})"), item.gsi1pk, item.gsi1sk))
        for start in range(0, len(rows), MANY_CHUNK):
            chunk = rows[start:start + MANY_CHUNK]

            def op(conn: sqlite3.Connection, chunk: list[tuple[Any, ...]] = chunk) -> None:
                # One transaction per chunk: one commit instead of one per item, and a chunk
                # that meets a lock has not applied, so `_run` may run it again whole.
                conn.execute("BEGIN IMMEDIATE")
                try:
                    conn.executemany(_UPSERT, chunk)
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")

            await self._run("put_many", op)

    async def delete(self, pk: str, sk: str = "_") -> None:
        await self._run("delete", lambda conn: conn.execute("DELETE FROM items WHERE pk=? AND sk=?", (pk, sk)))

    async def close(self) -> None:
        self._closed = True
        with self._conns_lock:
            conns, self._conns = self._conns, []
        for conn in conns:
            conn.close()
