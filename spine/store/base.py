"""Store protocol, its item, its errors, and the bounded-time guard every backend uses."""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel, Field

from spine.errors import SpineError

T = TypeVar("T")

# Absent-or-version condition for put(): None means unconditional.
ABSENT = -1


class StoreError(SpineError):
    """Base of every error a store raises."""


class StoreUnavailable(StoreError):
    """The backend is down, unreachable or slower than the configured bound."""


class ConditionFailed(StoreError):
    """A conditional put lost: the item existed (create-if-absent) or its version moved (CAS)."""


class Item(BaseModel):
    pk: str
    sk: str = "_"
    data: dict[str, Any] = Field(default_factory=dict)
    version: int = 0
    gsi1pk: str | None = None
    gsi1sk: str | None = None


class Store(Protocol):
    """What the spine needs from a backend. Every call returns or raises within `timeout_s`."""

    async def get(self, pk: str, sk: str = "_") -> Item | None: ...

    async def query(
        self, pk: str, sk_prefix: str = "", *, limit: int | None = None, descending: bool = False
    ) -> list[Item]: ...

    async def query_index(
        self, gsi1pk: str, sk_prefix: str = "", *, limit: int | None = None, descending: bool = False
    ) -> list[Item]: ...

    async def put(self, item: Item, *, expect_version: int | None = None) -> Item:
        """Write `item`, returning it with its new version.

        expect_version=None writes unconditionally; ABSENT (-1) creates only if no item is at
        (pk, sk); n >= 0 replaces only if the stored version is n. Losers get ConditionFailed.
        """
        ...

    async def get_many(self, keys: list[tuple[str, str]]) -> dict[tuple[str, str], Item]:
        """The items at these (pk, sk) keys that exist, in as few round trips as the backend allows."""
        ...

    async def put_many(self, items: list[Item]) -> None:
        """Write every item unconditionally, in as few round trips as the backend allows (an import
        writes tens of thousands). Each item's version becomes the stored one + 1 on SQLite and
        `item.version + 1` on DynamoDB (BatchWriteItem cannot add): pass the version you read, 0
        for a new item. Not atomic across items; a failure raises with some items written."""
        ...

    async def delete(self, pk: str, sk: str = "_") -> None: ...

    async def close(self) -> None: ...


async def bounded(op: Awaitable[T], timeout_s: float, what: str) -> T:
    """Run a store operation within a bound; a hang becomes StoreUnavailable, not a stuck caller."""
    try:
        return await asyncio.wait_for(op, timeout_s)
    except TimeoutError as exc:
        raise StoreUnavailable(f"store {what} did not answer within {timeout_s:.1f}s") from exc
