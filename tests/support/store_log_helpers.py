"""A store that logs its round trips: what a request asked the store for, in order, each op marked
with `mark()` at that moment (how many requests an external stand-in had received by then), so a
test can say what happened before and after a call left for that service. Everything passes
through to the store it wraps, unless `down` is set: then every op is refused, as a store that
cannot be reached refuses it."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spine.store.base import StoreUnavailable


@dataclass(frozen=True)
class Op:
    name: str  # get, get_many, query, query_index, put, put_many, delete
    keys: tuple[str, ...]  # the partition keys it touched
    mark: int


@dataclass
class StoreLog:
    inner: Any
    mark: Callable[[], int] = lambda: 0
    ops: list[Op] = field(default_factory=list)
    down: bool = False

    def _log(self, name: str, *keys: str) -> None:
        self.ops.append(Op(name, keys, self.mark()))
        if self.down:
            raise StoreUnavailable(f"the store refuses {name} {keys[0] if keys else ''}")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def get(self, pk: str, sk: str = "_") -> Any:
        self._log("get", pk)
        return await self.inner.get(pk, sk)

    async def get_many(self, keys: list[tuple[str, str]]) -> Any:
        self._log("get_many", *(pk for pk, _ in keys))
        return await self.inner.get_many(keys)

    async def query(self, pk: str, sk_prefix: str = "", **kw: Any) -> Any:
        self._log("query", pk)
        return await self.inner.query(pk, sk_prefix, **kw)

    async def query_index(self, gsi1pk: str, sk_prefix: str = "", **kw: Any) -> Any:
        self._log("query_index", gsi1pk)
        return await self.inner.query_index(gsi1pk, sk_prefix, **kw)

    async def put(self, item: Any, **kw: Any) -> Any:
        self._log("put", item.pk)
        return await self.inner.put(item, **kw)

    async def put_many(self, items: list[Any]) -> None:
        self._log("put_many", *(i.pk for i in items))
        await self.inner.put_many(items)

    async def delete(self, pk: str, sk: str = "_") -> None:
        self._log("delete", pk)
        await self.inner.delete(pk, sk)

    async def close(self) -> None:
        await self.inner.close()
