"""The Buildium work that runs after a webhook's 2xx and on the scheduler's tick: webhook events
(desk.pms.inbox), write-backs (gateway.pms.buildium.writeback) and the incremental poll every
`args.buildium.poll_s`, the safety net for deliveries Buildium gave up on (it retries three times,
then drops the event).

The paging scheduler (actors.control.scheduler) runs `tick` on its own loop, beside the ladders,
through `BuildiumWorkFactory`, so there is one poller per namespace; every gateway replica works
the webhooks it accepted at once (`work_event`). Without BUILDIUM_CLIENT_ID none of it exists."""
from __future__ import annotations

import asyncio
import logging
from datetime import datetime

from pydantic import BaseModel

from desk.pms import inbox
from desk.pms import writeback as w
from desk.pms.state import load_state
from gateway.pms.buildium.changes import apply_event
from gateway.pms.buildium.client import BuildiumClient
from gateway.pms.buildium.sync import SYSTEM, sync
from gateway.pms.buildium.writeback import write_one
from gateway.settings import Settings
from spine.events import emit_event
from spine.identity import utcnow
from spine.records import EventKind
from spine.repo import Spine

log = logging.getLogger("clara.buildium")
WRITE_EVERY_S = 5.0  # write-backs are looked at this often (each open one reads its work order)


class BuildiumWorker:
    def __init__(self, spine: Spine, client: BuildiumClient, organization: str, poll_s: float) -> None:
        self.spine, self.client, self.organization, self.poll_s = spine, client, organization, poll_s
        self._syncing = asyncio.Lock()  # one sync at a time in this process
        self._wrote_at: datetime | None = None

    async def work_event(self, event: inbox.InboxEvent, now: datetime | None = None) -> bool:
        """Claim, apply, and mark the event done; False when another worker had it or it failed."""
        if not await inbox.claim(self.spine, event, now):
            return False
        try:
            report = await apply_event(self.spine, self.client, event, self.organization)
        except Exception as exc:  # noqa: BLE001 - one bad event must not stop the others: retried, then the poll's
            await inbox.failed(self.spine, event, f"{type(exc).__name__}: {exc}")
            await emit_event(self.spine, EventKind.PMS_FAILED, "webhook", channel=None, address=None, property_id=None,
                             interaction_id=None, detail={"event": event.name, "event_id": event.event_id,
                                                                 "error": str(exc)[:200]})
            return False
        await inbox.done(self.spine, event)
        detail = {"event": event.name, "event_id": event.event_id, "writes": report.writes if report else 0,
                  "errors": report.errors[:5] if report else []}
        await emit_event(self.spine, EventKind.PMS_SYNCED, "webhook", channel=None, address=None, property_id=None,
                         interaction_id=None, detail=detail)
        return True

    async def tick(self, now: datetime | None = None) -> None:
        """What a crash left behind, the write-backs, and the poll when it is due."""
        now = now or utcnow()
        for event in await inbox.due(self.spine, SYSTEM, now):
            await self.work_event(event, now)
        if self._wrote_at is None or (now - self._wrote_at).total_seconds() >= WRITE_EVERY_S:
            self._wrote_at = now
            for wb in await w.all_of(self.spine, SYSTEM):
                if wb.state != "failed" and (wb.task_id is None or await _open(self.spine, wb)):
                    await write_one(self.spine, self.client, wb)
        await self.poll(now)

    async def poll(self, now: datetime) -> bool:
        """The incremental sync when `poll_s` passed since the last one started (after a first
        full sync, which `gateway buildium sync` runs)."""
        state = await load_state(self.spine.store, SYSTEM)
        if state.changes_since is None or (now - state.changes_since).total_seconds() < self.poll_s:
            return False
        async with self._syncing:
            run = await sync(self.spine, self.client, organization=self.organization, full=False)
        await emit_event(self.spine, EventKind.PMS_FAILED if run.report.failed else EventKind.PMS_SYNCED, "poll",
                         channel=None, address=None, property_id=None, interaction_id=None,
                         detail={"requests": run.requests, "writes": run.report.writes,
                                 "errors": len(run.report.errors)})
        return True

    async def aclose(self) -> None:
        await self.client.aclose()


async def _open(spine: Spine, wb: w.WriteBack) -> bool:
    """Whether the work order may still have something to write (notes, ETA, a vendor)."""
    wo = await spine.get_work_order(wb.work_order_id)
    return wo is not None and (wo.is_open or len(wo.notes) > wb.notes_written)


def open_worker(settings: Settings, spine: Spine, poll_s: float) -> BuildiumWorker | None:
    if not settings.buildium_client_id or not settings.buildium_client_secret:
        return None
    client = BuildiumClient(settings.buildium_api_base, settings.buildium_client_id, settings.buildium_client_secret)
    return BuildiumWorker(spine, client, settings.buildium_organization, poll_s)


class BuildiumWorkFactory(BaseModel):
    """What the gateway hands the scheduler (picklable: settings and the period, no connection)."""

    settings: Settings
    poll_s: float

    def open(self, spine: Spine) -> BuildiumWorker | None:
        return open_worker(self.settings, spine, self.poll_s)
