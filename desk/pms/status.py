"""A PMS connector's one status line (`gateway buildium status`, /admin/status): its sync state
with the write-backs pending and failed, the webhooks received in 7 days (their events) and still
waiting, counted from their records."""
from __future__ import annotations

from datetime import timedelta

from desk.pms import inbox
from desk.pms import writeback as w
from desk.pms.state import SyncState, load_state
from spine.identity import utcnow
from spine.records import EventKind
from spine.repo import Spine

WINDOW = timedelta(days=7)
EVENTS_READ = 5000  # a lower bound past this


async def current_state(spine: Spine, system: str) -> SyncState:
    state = await load_state(spine.store, system)
    writes = await w.all_of(spine, system)
    state.writes_pending = sum(1 for wb in writes if wb.state == "pending" or wb.in_doubt)
    state.writes_failed = sum(1 for wb in writes if wb.state == "failed")
    state.webhooks_waiting = await inbox.pending_count(spine, system)
    since = utcnow() - WINDOW
    seen = {e.detail.get("event_id") for kind in (EventKind.PMS_SYNCED, EventKind.PMS_FAILED)
            for e in await spine.events(kind, limit=EVENTS_READ, since=since) if e.reason == "webhook"}
    state.webhooks_received = len(seen) + state.webhooks_waiting  # a failed one waits, and has events
    return state
