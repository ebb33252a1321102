"""A PMS's webhook deliveries, kept durably from the moment they are accepted until worked.

The webhook route writes the event here before it answers 2xx (Buildium wants an answer within
10 s and retries three times at most), then works it at once on a background task; the
scheduler's PMS tick works whatever a crash left behind (a claim older than `CLAIM_S`). So a
process that dies after the 2xx loses nothing. A delivery is deduplicated by its event id: a
second one while the first waits is refused by the create-if-absent write, one after it was
worked by the `pms_webhook_marker` left behind."""
from __future__ import annotations

from datetime import datetime, timedelta

import spine.keys as keys
from spine.identity import utcnow
from spine.repo import Spine
from spine.repo.pms import InboxEvent

__all__ = ["CLAIM_S", "MAX_ATTEMPTS", "InboxEvent", "accept", "claim", "done", "due", "failed", "pending_count"]

CLAIM_S = 30.0  # a claim older than this was its worker's last act: another may take the event
MAX_ATTEMPTS = 5  # then it waits for the incremental poll, which reads the same change


async def accept(spine: Spine, event: InboxEvent) -> bool:
    """Keep the delivery; False when this event id was accepted before (a redelivery)."""
    if await spine.is_marked(keys.pms_webhook_marker(event.system, event.event_id)):
        return False
    return await spine.create_pms_event(event)


async def claim(spine: Spine, event: InboxEvent, now: datetime | None = None) -> bool:
    """Take the event for work (compare-and-set on its version): False when another worker has it."""
    event.claimed_at, event.attempts = now or utcnow(), event.attempts + 1
    return await spine.replace_pms_event(event)


async def due(spine: Spine, system: str, now: datetime | None = None, limit: int = 100) -> list[InboxEvent]:
    """Events nobody works: never claimed, or claimed longer ago than a worker takes."""
    stale = (now or utcnow()) - timedelta(seconds=CLAIM_S)
    events = await spine.pms_events(system, limit=limit)
    return [e for e in events if e.attempts < MAX_ATTEMPTS and (e.claimed_at is None or e.claimed_at < stale)]


async def pending_count(spine: Spine, system: str) -> int:
    return len(await spine.pms_events(system, limit=1000))


async def done(spine: Spine, event: InboxEvent) -> None:
    """Worked: the marker first (a redelivery from now on is a duplicate), then the record goes."""
    await spine.mark_once(keys.pms_webhook_marker(event.system, event.event_id))
    await spine.delete_pms_event(event)


async def failed(spine: Spine, event: InboxEvent, error: str) -> None:
    """Left for a later tick (claimed_at cleared), up to MAX_ATTEMPTS. A lost write: another worker
    took it meanwhile, and its outcome stands."""
    event.error, event.claimed_at = error[:300], None
    await spine.replace_pms_event(event)
