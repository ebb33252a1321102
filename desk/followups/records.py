"""What a follow-up reads of the record it follows: whether it changed so the step no longer
applies (a cancelled tour, a reopened work order, a renewal answered), and its words now.

Read at the moment of sending, never from a hook on every writer: the console, the PMS sync and
the tools all change tours and work orders, and a check at sending time sees every one of them.
"""
from __future__ import annotations

from desk.followups.texts import closeout_text, renewal_text, spanish, tour_text
from spine.followup import Follows, FollowUp, FollowUpKind
from spine.property import Property
from spine.repo import Spine
from spine.work import RenewalStatus, TourStatus, WorkOrderStatus

# The tour statuses in which each tour step still applies.
_TOUR_STEP_APPLIES: dict[FollowUpKind, frozenset[TourStatus]] = {
    FollowUpKind.TOUR_REMINDER_24H: frozenset({TourStatus.REQUESTED, TourStatus.SCHEDULED}),
    FollowUpKind.TOUR_REMINDER_2H: frozenset({TourStatus.REQUESTED, TourStatus.SCHEDULED}),
    # Staff marking it completed or cancelled stops it; marked no_show, or not marked, it goes.
    FollowUpKind.TOUR_NO_SHOW: frozenset({TourStatus.REQUESTED, TourStatus.SCHEDULED, TourStatus.NO_SHOW}),
    FollowUpKind.TOUR_APPLICATION: frozenset({TourStatus.SCHEDULED, TourStatus.COMPLETED}),
}
DONE_WORK = frozenset({WorkOrderStatus.COMPLETED, WorkOrderStatus.CLOSED})


async def record_changed(spine: Spine, fu: FollowUp) -> str | None:
    """Why the followed record no longer wants this step (the stop's reason), or None."""
    if fu.follows == Follows.TOUR:
        tour = await spine.get_tour(fu.follows_id)
        if tour is None:
            return "tour gone"
        return None if tour.status in _TOUR_STEP_APPLIES[fu.kind] else f"tour {tour.status}"
    if fu.follows == Follows.WORK_ORDER:
        wo = await spine.get_work_order(fu.follows_id)
        if wo is None:
            return "work order gone"
        return None if wo.status in DONE_WORK else f"work order {wo.status}"
    renewal = await spine.get_renewal(fu.follows_id)
    if renewal is None:
        return "renewal gone"
    return None if renewal.status == RenewalStatus.OFFERED else f"renewal {renewal.status}"


async def body_of(spine: Spine, fu: FollowUp, prop: Property) -> str | None:
    """The follow-up's words as its record stands now, in the person's language; None when gone."""
    es = await spanish(spine, fu.person_id)
    if fu.follows == Follows.TOUR:
        tour = await spine.get_tour(fu.follows_id)
        return tour_text(fu, tour, prop, es) if tour else None
    if fu.follows == Follows.WORK_ORDER:
        wo = await spine.get_work_order(fu.follows_id)
        return closeout_text(wo, prop, es) if wo else None
    renewal = await spine.get_renewal(fu.follows_id)
    if renewal is None:
        return None
    lease = await spine.current_lease(renewal.unit_id)
    return renewal_text(renewal, prop, lease.end.isoformat() if lease else "soon", es)
