"""What a PMS connector keeps in the store beside the imported records: its sync state (shown by
`gateway buildium status` and /admin/status) and the gateway's side of each synced property."""
from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, Field

import spine.keys as keys
from spine.store.base import Item, Store

M = TypeVar("M", bound=BaseModel)
ERRORS_KEPT = 50  # the last sync's errors shown; the sync printed them all


class SyncState(BaseModel):
    system: str
    last_full_at: datetime | None = None
    last_incremental_at: datetime | None = None
    # Where the next incremental sync starts reading (`lastupdatedfrom`): the start of the last sync.
    changes_since: datetime | None = None
    counts: dict[str, dict[str, int]] = Field(default_factory=dict)  # entity -> created/updated/... of the last sync
    requests: int = 0  # of the last sync
    errors: list[str] = Field(default_factory=list)
    error_count: int = 0
    webhooks_received: int = 0  # in the last 7 days (desk.pms.status counts them from the events)
    webhooks_waiting: int = 0  # accepted and not yet worked (desk.pms.inbox)
    webhooks_refused: int = 0
    writes_pending: int = 0
    writes_failed: int = 0

    def line(self) -> str:
        """One line: the admin status and `status` show it."""
        def when(at: datetime | None) -> str:
            return at.isoformat(timespec="seconds") if at else "never"
        made = sum(c.get("created", 0) + c.get("updated", 0) for c in self.counts.values())
        return (f"{self.system}: last full sync {when(self.last_full_at)}, last incremental {when(self.last_incremental_at)}, "
                f"{made} records written, {self.error_count} errors, {self.webhooks_received} webhooks in 7 days "
                f"({self.webhooks_waiting} waiting), "
                f"write-backs {self.writes_pending} pending / {self.writes_failed} failed")


async def _get(store: Store, model: type[M], pk: str, sk: str = keys.ITEM) -> M | None:
    item = await store.get(pk, sk)
    return model.model_validate(item.data) if item else None


async def load_state(store: Store, system: str) -> SyncState:
    return await _get(store, SyncState, keys.pms_state(system)) or SyncState(system=system)


async def save_state(store: Store, state: SyncState) -> None:
    await store.put(Item(pk=keys.pms_state(state.system), data=state.model_dump(mode="json")))


async def save_link(store: Store, system: str, record_id: str, link: BaseModel) -> None:
    await store.put(Item(pk=keys.pms_links(system), sk=keys.pms_link(record_id), data=link.model_dump(mode="json")))


async def load_links(store: Store, system: str) -> dict[str, dict[str, Any]]:
    items = await store.query(keys.pms_links(system), keys.pms_link(""))
    return {i.sk.removeprefix(keys.pms_link("")): i.data for i in items}
