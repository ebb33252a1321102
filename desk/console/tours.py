"""Staff set a tour's outcome from the console (completed, no_show, cancelled): the leasing funnel
counts it and the follow-ups read it (a no-show follow-up stops at completed or cancelled)."""
from __future__ import annotations

from spine.repo import Spine
from spine.work import Tour, TourStatus

STAFF_SET = frozenset({TourStatus.COMPLETED, TourStatus.NO_SHOW, TourStatus.CANCELLED})


async def set_tour_status(spine: Spine, tour: Tour, status: TourStatus, *, by: str) -> tuple[Tour, bool]:
    """The tour with `status` set by `by`, and whether it changed (a repeated click changes nothing)."""
    if status not in STAFF_SET:
        raise ValueError(f"staff set a tour to {sorted(STAFF_SET)}, not {status}")
    if tour.status == status:
        return tour, False
    changed = tour.model_copy(update={"status": status, "status_by_person_id": by, "status_at": spine.clock()})
    await spine.put_tour(changed)
    return changed, True
