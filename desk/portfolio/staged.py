"""StagedStore: a store's view whose writes are held until `commit`, which writes each held item
once, and only where it differs from what is stored.

The demo seed imports its portfolio folder and then completes those records with what the CSV
files cannot hold (facility facts, appliances, a Telegram bot ...). Staged, each item reaches the
store once, in its final form: a fresh seed leaves every item at version 1, and a second seed,
whose every write equals what is stored, writes nothing."""
from __future__ import annotations

from collections.abc import Callable

from spine.store.base import ABSENT, ConditionFailed, Item, Store

Key = tuple[str, str]


class StagedStore:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._held: dict[Key, Item | None] = {}  # None: deleted

    async def get(self, pk: str, sk: str = "_") -> Item | None:
        if (pk, sk) in self._held:
            return self._held[(pk, sk)]
        return await self._store.get(pk, sk)

    async def get_many(self, keys: list[Key]) -> dict[Key, Item]:
        found = await self._store.get_many([k for k in keys if k not in self._held])
        found.update({k: item for k in keys if (item := self._held.get(k)) is not None})
        return found

    async def query(self, pk: str, sk_prefix: str = "", *, limit: int | None = None,
                    descending: bool = False) -> list[Item]:
        stored = {(i.pk, i.sk): i for i in await self._store.query(pk, sk_prefix, descending=descending)}
        held = {k: i for k, i in self._held.items() if k[0] == pk and k[1].startswith(sk_prefix)}
        return self._merged(stored, held, descending, limit, lambda i: i.sk)

    async def query_index(self, gsi1pk: str, sk_prefix: str = "", *, limit: int | None = None,
                          descending: bool = False) -> list[Item]:
        stored = {(i.pk, i.sk): i for i in await self._store.query_index(gsi1pk, sk_prefix, descending=descending)}
        held: dict[Key, Item | None] = {k: i for k, i in self._held.items()
                if i is not None and i.gsi1pk == gsi1pk and (i.gsi1sk or "").startswith(sk_prefix)}
        stored = {k: i for k, i in stored.items() if k not in self._held}
        return self._merged(stored, held, descending, limit, lambda i: i.gsi1sk or "")

    @staticmethod
    def _merged(stored: dict[Key, Item], held: dict[Key, Item | None], descending: bool, limit: int | None,
                order: Callable[[Item], str]) -> list[Item]:
        merged = {**stored, **held}
        items = sorted((i for i in merged.values() if i is not None), key=order, reverse=descending)
        return items[:limit] if limit is not None else items

    async def put(self, item: Item, *, expect_version: int | None = None) -> Item:
        current = await self.get(item.pk, item.sk)
        if (expect_version == ABSENT and current is not None) or \
                (expect_version is not None and expect_version >= 0 and (current is None or current.version != expect_version)):
            raise ConditionFailed(f"{item.pk}/{item.sk}: version is not {expect_version}")
        held = item.model_copy(update={"version": (current.version if current else 0) + 1})
        self._held[(item.pk, item.sk)] = held
        return held

    async def put_many(self, items: list[Item]) -> None:
        for item in items:
            await self.put(item)

    async def delete(self, pk: str, sk: str = "_") -> None:
        self._held[(pk, sk)] = None

    async def close(self) -> None:
        await self._store.close()

    async def commit(self) -> int:
        """Write what differs from the store; returns how many items were written or deleted."""
        stored = await self._store.get_many(list(self._held))
        changed: list[Item] = []
        deleted = 0
        for key, item in self._held.items():
            was = stored.get(key)
            if item is None:
                if was is not None:
                    await self._store.delete(*key)
                    deleted += 1
            elif was is None or (was.data, was.gsi1pk, was.gsi1sk) != (item.data, item.gsi1pk, item.gsi1sk):
                changed.append(item.model_copy(update={"version": was.version if was else 0}))  # as put_many wants
        await self._store.put_many(changed)
        self._held.clear()
        return len(changed) + deleted
