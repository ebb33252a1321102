"""The reads of a call's opening, made cheap enough to answer while the phone rings.

Opening a call asks the store the same questions several times (routing, the caller's authority
and the context build each read the Person and their roles) and asks reference questions whose
answers change only by operator action (which property a number rings, its units and vendors).
`OpenReads` is a Spine for one opening: each Person-scoped record is read once, however many
ask for it (concurrent askers share the one read), and reference data comes from a replica-wide
`ReferenceCache` kept for a few seconds. Person, roles and personContext are always read fresh.
Writes pass straight through to the store.
"""
from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from spine.context import PersonContext
from spine.identity import Person, PersonRole
from spine.property import Property, Unit, Vendor
from spine.repo import Spine

REFERENCE_TTL_S = 30.0


class ReferenceCache:
    """Properties (and the numbers that ring them), units and vendors: an operator's edit reaches
    voice personalization within `ttl_s`."""

    def __init__(self, ttl_s: float = REFERENCE_TTL_S) -> None:
        self.ttl_s = ttl_s
        self._items: dict[tuple[str, str], tuple[float, Any]] = {}

    async def get(self, kind: str, key: str, load: Callable[[str], Awaitable[Any]]) -> Any:
        now = time.monotonic()
        hit = self._items.get((kind, key))
        if hit is not None and hit[0] > now:
            return hit[1]
        value = await load(key)
        self._items[(kind, key)] = (now + self.ttl_s, value)
        return value


class OpenReads(Spine):
    def __init__(self, spine: Spine, reference: ReferenceCache) -> None:
        super().__init__(spine.store)
        self._base, self._reference = spine, reference
        self._memo: dict[tuple[str, str], asyncio.Future] = {}

    async def _once(self, kind: str, key: str, load: Callable[[str], Awaitable[Any]]) -> Any:
        future = self._memo.get((kind, key))
        if future is None:
            future = self._memo[(kind, key)] = asyncio.ensure_future(load(key))
        return await asyncio.shield(future)

    async def get_person(self, person_id: str) -> Person | None:
        return await self._once("person", person_id, self._base.get_person)

    async def roles_of(self, person_id: str) -> list[PersonRole]:
        return list(await self._once("roles", person_id, self._base.roles_of))

    async def get_context(self, person_id: str) -> PersonContext | None:
        return await self._once("context", person_id, self._base.get_context)

    async def get_property(self, property_id: str) -> Property | None:
        return await self._reference.get("property", property_id, self._base.get_property)

    async def property_for_number(self, number: str) -> Property | None:
        return await self._reference.get("number", number, self._base.property_for_number)

    async def get_unit(self, unit_id: str) -> Unit | None:
        return await self._reference.get("unit", unit_id, self._base.get_unit)

    async def get_vendor(self, vendor_id: str) -> Vendor | None:
        return await self._reference.get("vendor", vendor_id, self._base.get_vendor)
