"""A PMS connector's one status line (`gateway buildium status`, /admin/status): its sync state
with the write-backs pending and failed and the webhooks still waiting, counted from their records."""
from __future__ import annotations

from desk.pms import inbox
from desk.pms import writeback as w
from desk.pms.state import SyncState, load_state
from spine.repo import Spine


async def current_state(spine: Spine, system: str) -> SyncState:
    state = await load_state(spine.store, system)
    writes = await w.all_of(spine, system)
    state.writes_pending = sum(1 for wb in writes if wb.state == "pending" or wb.in_doubt)
    state.writes_failed = sum(1 for wb in writes if wb.state == "failed")
    state.webhooks_received = await inbox.pending_count(spine, system)
    return state
