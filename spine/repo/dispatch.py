"""Spine methods of vendor dispatches (desk/dispatch/dispatch.py). A mixin of `Spine`. A dispatch changes
only by compare-and-set on its version, so a YES, a NO and the reminder racing on one dispatch
leave one outcome."""
from __future__ import annotations

import spine.keys as keys
from spine.dispatch_record import Dispatch, DispatchStatus
from spine.repo.base import RepoBase
from spine.store.base import ABSENT, ConditionFailed, Item


def _item(dispatch: Dispatch) -> Item:
    return Item(pk=keys.dispatch(dispatch.id), data=dispatch.model_dump(mode="json"),
                gsi1pk=keys.dispatches_with_status(dispatch.status),
                gsi1sk=f"{dispatch.sent_at.isoformat()}#{dispatch.id}")


class DispatchRecords(RepoBase):
    async def create_dispatch(self, dispatch: Dispatch) -> bool:
        try:
            await self.store.put(_item(dispatch), expect_version=ABSENT)
            return True
        except ConditionFailed:
            return False

    async def get_dispatch(self, dispatch_id: str) -> tuple[Dispatch, int] | None:
        item = await self.store.get(keys.dispatch(dispatch_id))
        return (Dispatch.model_validate(item.data), item.version) if item else None

    async def replace_dispatch(self, dispatch: Dispatch, version: int) -> bool:
        """Write the changed dispatch only if nobody changed it since `version` was read."""
        try:
            await self.store.put(_item(dispatch), expect_version=version)
            return True
        except ConditionFailed:
            return False

    async def dispatches(self, status: DispatchStatus, *, limit: int = 500) -> list[Dispatch]:
        """Oldest sent first."""
        return await self._index(Dispatch, keys.dispatches_with_status(status), limit=limit)
