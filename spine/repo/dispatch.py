"""Spine methods of vendor dispatches (desk/dispatch/dispatch.py). A mixin of `Spine`. A dispatch changes
only by compare-and-set on its version, so a YES, a NO and the reminder racing on one dispatch
leave one outcome."""
from __future__ import annotations

from collections.abc import Callable

import spine.keys as keys
from spine.dispatch_record import Dispatch, DispatchStatus
from spine.repo.base import Changed, RepoBase
from spine.store.base import ABSENT, Item


def _item(dispatch: Dispatch) -> Item:
    return Item(pk=keys.dispatch(dispatch.id), data=dispatch.model_dump(mode="json"),
                gsi1pk=keys.dispatches_with_status(dispatch.status),
                gsi1sk=keys.dispatch_position(dispatch.sent_at.isoformat(), dispatch.id))


class DispatchRecords(RepoBase):
    async def create_dispatch(self, dispatch: Dispatch) -> bool:
        return await self._replace(_item(dispatch), ABSENT)

    async def get_dispatch(self, dispatch_id: str) -> tuple[Dispatch, int] | None:
        item = await self.store.get(keys.dispatch(dispatch_id))
        return (Dispatch.model_validate(item.data), item.version) if item else None

    async def replace_dispatch(self, dispatch: Dispatch, version: int) -> bool:
        """Write the changed dispatch only if nobody changed it since `version` was read."""
        return await self._replace(_item(dispatch), version)

    async def change_dispatch(self, dispatch_id: str, change: Callable[[Dispatch | None], Dispatch | None], *,
                              tries: int) -> Changed[Dispatch]:
        """Apply `change` to the dispatch by compare-and-set (a YES, a NO and the reminder race)."""
        return await self._compare_and_set(Dispatch, keys.dispatch(dispatch_id), change=change, tries=tries,
                                           item_of=lambda dispatch, _read: _item(dispatch))

    async def dispatches(self, status: DispatchStatus, *, limit: int = 500) -> list[Dispatch]:
        """Oldest sent first."""
        return await self._index(Dispatch, keys.dispatches_with_status(status), limit=limit)
