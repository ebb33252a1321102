"""The reads of a call's opening, made cheap enough to answer while the phone rings.

Opening a call asks the store the same questions several times: routing, the caller's authority
and the context build each read the Person and their roles. `OpenReads` is a Spine for one
opening in which each Person-scoped record is read once, however many ask for it (concurrent
askers share the one read); that saves a third of an opening's store reads. Reference data
(properties, the numbers that ring them, units, vendors) comes from the wrapped Spine's
per-process reference cache, shared with it, and is also taken once per opening: the property is
asked for five times, and each cache hit is a fresh model validated anew. Writes pass straight
through to the store.
"""
from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from spine.context import PersonContext
from spine.identity import Person, PersonRole
from spine.property import Property, Unit, Vendor
from spine.repo import Spine

T = TypeVar("T")


class OpenReads(Spine):
    def __init__(self, spine: Spine) -> None:
        super().__init__(spine.store)
        self.reference = spine.reference  # one replica-wide cache; our writes drop its entries too
        self._base = spine
        self._memo: dict[tuple[str, str], asyncio.Future[Any]] = {}  # each kind holds its loader's type

    async def _once(self, kind: str, key: str, load: Callable[[str], Awaitable[T]]) -> T:
        """The first asker reads, in its own task (an inline SQLite read costs less than starting
        a task for it would); askers that come while that read is in flight wait for it."""
        memo = self._memo.get((kind, key))
        if memo is not None:
            return cast(T, memo.result() if memo.done() else await asyncio.shield(memo))
        memo = self._memo[(kind, key)] = asyncio.get_running_loop().create_future()
        try:
            value = await load(key)
        except asyncio.CancelledError:
            memo.cancel()
            raise
        except Exception as exc:
            memo.set_exception(exc)
            memo.exception()  # this asker raises it; a later one gets it from the memo
            raise
        memo.set_result(value)
        return value

    async def get_person(self, person_id: str) -> Person | None:
        return await self._once("person", person_id, self._base.get_person)

    async def roles_of(self, person_id: str) -> list[PersonRole]:
        return list(await self._once("roles", person_id, self._base.roles_of))

    async def get_context(self, person_id: str) -> PersonContext | None:
        return await self._once("context", person_id, self._base.get_context)

    async def get_property(self, property_id: str) -> Property | None:
        return await self._once("property", property_id, self._base.get_property)

    async def get_unit(self, unit_id: str) -> Unit | None:
        return await self._once("unit", unit_id, self._base.get_unit)

    async def get_vendor(self, vendor_id: str) -> Vendor | None:
        return await self._once("vendor", vendor_id, self._base.get_vendor)
