"""Store reads counted per turn: how many times one interaction asked the store for what.

`counting(store)` wraps any Store; reads made while a `ReadCount` is current (a context
variable, so concurrent turns on one event loop are told apart and the tasks a turn starts count
for it) are tallied by the kind of record read. Outside a counted turn the wrapper only delegates.
The trace records the tally (`AgentTrace.store_reads`) and bench/sms.py reads it back.
"""
from __future__ import annotations

from collections import Counter
from contextvars import ContextVar, Token
from typing import Any

import spine.keys as keys
from spine.store.base import Item, Store

_current: ContextVar[Counter[str] | None] = ContextVar("clara_store_reads", default=None)


def read_kind(pk: str, sk: str = "_", *, query: bool = False) -> str:
    """The record a read is for, in the words the issue counts them: person, roles, context, ..."""
    prefix = pk.split("#", 1)[0].lower()
    if prefix == "person":
        if query and sk.startswith(keys.ROLE_PREFIX):
            return "roles"
        if sk == "_" and not query:
            return "person"
        return "context" if sk == keys.CONTEXT else "person_records"
    return prefix or "other"


class ReadCount:
    """`with ReadCount() as reads:` counts the store reads of the code inside (and its tasks).
    With `join=True` it adds to the count already running, if there is one (a turn run by a
    PersonActor counts what the actor read for it before the turn began)."""

    def __init__(self, *, join: bool = False) -> None:
        running = _current.get() if join else None
        self.counts: Counter[str] = running if running is not None else Counter()
        self._token: Token[Counter[str] | None] | None = None
        self._own = running is None

    def __enter__(self) -> ReadCount:
        if self._own:
            self._token = _current.set(self.counts)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _current.reset(self._token)
            self._token = None

    def as_dict(self) -> dict[str, int]:
        return dict(sorted(self.counts.items()))


def add_reads(counts: dict[str, int]) -> None:
    """Fold reads made elsewhere on this turn's behalf (the DispatcherActor's) into the current count."""
    current = _current.get()
    if current is not None:
        current.update(counts)


# Host <-> DispatcherActor round trips ride in the same per-turn tally under this key (a hop is a
# cost of the turn like a read); `split_round_trips` takes it out before the trace records reads.
ROUND_TRIPS = "dispatcher_round_trips"


def count_round_trip() -> None:
    """One call from the turn to the dispatcher (counted by whoever makes the call)."""
    _count(ROUND_TRIPS)


def split_round_trips(counts: dict[str, int]) -> tuple[dict[str, int], int]:
    """(the store reads, the dispatcher round trips) of a tally from `ReadCount.as_dict`."""
    reads = dict(counts)
    return reads, reads.pop(ROUND_TRIPS, 0)


def _count(kind: str) -> None:
    current = _current.get()
    if current is not None:
        current[kind] += 1


class CountingStore:
    """A Store that counts the reads of the current turn; everything else passes through."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def get(self, pk: str, sk: str = "_") -> Item | None:
        _count(read_kind(pk, sk))
        return await self.inner.get(pk, sk)

    async def query(self, pk: str, sk_prefix: str = "", **kw: Any) -> list[Item]:
        _count(read_kind(pk, sk_prefix, query=True))
        return await self.inner.query(pk, sk_prefix, **kw)

    async def query_index(self, gsi1pk: str, sk_prefix: str = "", **kw: Any) -> list[Item]:
        _count("index:" + gsi1pk.split("#", 1)[0].lower())
        return await self.inner.query_index(gsi1pk, sk_prefix, **kw)

    async def put(self, item: Item, *, expect_version: int | None = None) -> Item:
        return await self.inner.put(item, expect_version=expect_version)

    async def get_many(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Item]:
        for pk, sk in keys:
            _count(read_kind(pk, sk))
        return await self.inner.get_many(keys)

    async def put_many(self, items: list[Item]) -> None:
        await self.inner.put_many(items)

    async def delete(self, pk: str, sk: str = "_") -> None:
        await self.inner.delete(pk, sk)

    async def close(self) -> None:
        await self.inner.close()


def counting(store: Store) -> Store:
    return store if isinstance(store, CountingStore) else CountingStore(store)
