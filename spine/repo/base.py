"""RepoBase: the store, the reference-data cache and the typed item helpers every part of
`Spine` (spine/repo/__init__.py and its mixins) reads and writes through. Each mixin subclasses it, so
each file type-checks on its own."""
from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

import spine.keys as keys
from spine.identity import utcnow
from spine.property import Property
from spine.repo.reference_cache import REFERENCE_TTL_S, ReferenceCache
from spine.store.base import ABSENT, ConditionFailed, Item, Store

M = TypeVar("M", bound=BaseModel)
CAS_TRIES = 8  # a record's compare-and-set gives up after this many lost races (the caller decides what then)


@dataclass(frozen=True)
class Changed(Generic[M]):
    """What a compare-and-set did: the record as read on the last try (None: there was none) and
    as written (None: `change` left it as it was, or every try lost the race, then `lost`)."""
    before: M | None
    after: M | None
    lost: bool = False


@dataclass(frozen=True)
class Held:
    """A record's item as its caller read it a moment ago (None: there was none), handed to a
    compare-and-set so its first try writes without reading it again."""
    item: Item | None


def _dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json")


def _item_of(model: BaseModel, read: Item | None, pk: str, sk: str) -> Item:
    if read is None:
        return Item(pk=pk, sk=sk, data=_dump(model))
    return read.model_copy(update={"data": _dump(model)})


class RepoBase:
    def __init__(self, store: Store, *, reference_ttl_s: float = REFERENCE_TTL_S,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self.store = store
        self.reference = ReferenceCache(reference_ttl_s)
        # Markers this Spine saw made (Spine.mark_once, is_marked): a marker is never removed, so
        # one seen stays marked and asking again reads nothing (an introduction asked per message).
        self.seen_marks: set[str] = set()
        # The one clock of the office's records and rules (docs/architecture.md, "what time it is"):
        # the contact window, coalescing, ladders, follow-ups, a record's times. Tests and evals inject
        # one rather than waiting for 09:00; what a process measures by itself stays on utcnow().
        self.clock = clock

    async def _get(self, model: type[M], pk: str, sk: str = keys.ITEM) -> M | None:
        item = await self.store.get(pk, sk)
        return model.model_validate(item.data) if item else None

    async def _get_reference(self, model: type[M], pk: str) -> M | None:
        data = await self._reference_data(pk)
        return model.model_validate(data) if data is not None else None

    async def _reference_data(self, pk: str) -> dict[str, Any] | None:
        """A reference record's raw data through the cache, not a model: for a writer that needs
        one field of it (a property's org or time zone) several times a turn. Do not modify it."""
        hit, data = self.reference.get(pk)
        if not hit:
            item = await self.store.get(pk)
            data = item.data if item else None
            self.reference.put(pk, data)
        return data

    async def _property_field(self, property_id: str, field: str) -> Any:
        """One field of a property (its default when the stored record lacks it), without
        building the model; None when there is no such property."""
        data = await self._reference_data(keys.property_(property_id))
        if data is None:
            return None
        return data[field] if field in data else Property.model_fields[field].default

    async def _put_reference_item(self, item: Item) -> None:
        self.reference.drop(item.pk)
        await self.store.put(item)

    async def put_items(self, items: list[Item]) -> None:
        """Many items in as few writes as the store allows (spine.repo.items builds them); the
        reference cache forgets each, as a put of one would."""
        for item in items:
            self.reference.drop(item.pk)
        await self.store.put_many(items)

    async def _put(self, model: BaseModel, pk: str, sk: str = keys.ITEM, *, gsi1pk: str | None = None,
                   gsi1sk: str | None = None, if_absent: bool = False) -> None:
        item = Item(pk=pk, sk=sk, data=_dump(model), gsi1pk=gsi1pk, gsi1sk=gsi1sk)
        await self.store.put(item, expect_version=ABSENT if if_absent else None)

    async def _replace(self, item: Item, version: int) -> bool:
        """Write `item` only if the stored one is still at `version` (ABSENT: only if there is none);
        False when another writer was first. The one conditional write of a record read before."""
        return await self._replace_versioned(item, version) is not None

    async def _replace_versioned(self, item: Item, version: int) -> int | None:
        """`_replace` for a caller that keeps the record's version to write it again without a
        read (a PMS event's claim, a write-back's save): the version written, None when lost."""
        try:
            return (await self.store.put(item, expect_version=version)).version
        except ConditionFailed:
            return None

    async def _compare_and_set(self, model: type[M], pk: str, sk: str = keys.ITEM, *,
                               change: Callable[[M | None], M | None],
                               item_of: Callable[[M, Item | None], Item] | None = None,
                               tries: int | None = CAS_TRIES, held: Held | None = None) -> Changed[M]:
        """Read the record, apply `change` (it gets a copy, or None when there is none; None back:
        nothing to write) and write it only if nobody wrote it meanwhile, again on a lost race, at
        most `tries` times (None: until it wins). `item_of(after, item read)` builds the item
        written; by default the read item (its index keys kept) with the new data, or a plain one.
        `held`: the item as the caller read it, tried first instead of a read (a stale one loses
        its race, or is read again when `change` finds nothing to do in it)."""
        before: M | None = None
        for _ in range(tries) if tries is not None else itertools.count():
            from_held = held is not None
            item = held.item if held is not None else await self.store.get(pk, sk)
            held = None
            before = model.model_validate(item.data) if item else None
            # `change` gets its own copy: validated again from the item, several times cheaper than a deep copy.
            after = change(model.model_validate(item.data) if item else None)
            if after is None and from_held:
                continue  # nothing to do as the caller saw it: as it stands now, then
            if after is None:
                return Changed(before, None)
            written = item_of(after, item) if item_of else _item_of(after, item, pk, sk)
            if await self._replace(written, item.version if item else ABSENT):
                return Changed(before, after)
        return Changed(before, None, lost=True)

    async def _query(self, model: type[M], pk: str, prefix: str = "") -> list[M]:
        return [model.model_validate(i.data) for i in await self.store.query(pk, prefix)]

    async def _index(self, model: type[M], key: str, prefix: str = "", *, limit: int | None = None,
                     descending: bool = False) -> list[M]:
        items = await self.store.query_index(key, prefix, limit=limit, descending=descending)
        return [model.model_validate(i.data) for i in items]

    async def _create(self, model: BaseModel, pk: str, sk: str = keys.ITEM, *, gsi1pk: str | None = None,
                      gsi1sk: str | None = None) -> bool:
        """Write only if absent; False when the item already exists."""
        return await self._replace(Item(pk=pk, sk=sk, data=_dump(model), gsi1pk=gsi1pk, gsi1sk=gsi1sk), ABSENT)
