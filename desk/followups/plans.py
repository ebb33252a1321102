"""Planning follow-ups when something happens: a tour booked, a work order completed, a renewal
offered. Each step's id is stable per (record, step), so planning again (a retried tool, a second
"completed") writes nothing new. What a plan wrote is answered as `Notification`s of kind
`followup` (status `deferred`, `not_before` the due time), which the tool results carry, so the
trace of the turn that planned them lists them beside what it queued.
"""
from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from zoneinfo import ZoneInfo

import spine.keys as keys
from spine.followup import Follows, FollowUp, FollowUpKind, StopOn
from spine.identity import OccupancyKind, PersonRoleType
from spine.notification import Notification, NotificationKind, NotificationStatus
from spine.repo import Spine
from spine.work import RenewalStatus, RenewalWorkflow, Tour, WorkOrder

# (step, due relative to the tour, expires relative to the tour: past it the words are untrue)
TOUR_STEPS: list[tuple[FollowUpKind, timedelta, timedelta]] = [
    (FollowUpKind.TOUR_REMINDER_24H, timedelta(hours=-24), timedelta(hours=-2)),
    (FollowUpKind.TOUR_REMINDER_2H, timedelta(hours=-2), timedelta(minutes=-15)),
    (FollowUpKind.TOUR_NO_SHOW, timedelta(minutes=30), timedelta(days=1)),
    (FollowUpKind.TOUR_APPLICATION, timedelta(days=1), timedelta(days=4)),
]
CLOSEOUT_AFTER = timedelta(hours=2)  # Latchel asks at 2 h; the window may move it to the morning
ANSWER_WITHIN_S = 48 * 3600.0  # no answer after 48 h ends the close-out quietly
RENEWAL_DAYS_BEFORE = (90, 60, 30)
RENEWAL_ANSWER_WITHIN_S = 30 * 86400.0  # "I'm moving out" a month after the offer still answers it
_ALL_BUT_REPLY = [StopOn.TAKEOVER, StopOn.OPT_OUT, StopOn.RECORD_CHANGED]


def as_notification(fu: FollowUp) -> Notification:
    return Notification(kind=NotificationKind.FOLLOWUP, recipient_person_id=fu.person_id, channel=None,
                        status=NotificationStatus.DEFERRED, outbox_id=f"followup-{fu.id}", not_before=fu.due_at)


async def _create_all(spine: Spine, planned: list[FollowUp]) -> list[Notification]:
    return [as_notification(fu) for fu in planned if await spine.create_followup(fu)]


async def plan_tour(spine: Spine, tour: Tour, *, now: datetime, interaction_id: str | None = None) -> list[Notification]:
    """A booked tour: reminders 24 h and 2 h before, the no-show follow-up 30 min after, the
    application link the next day. A step already past when booked is skipped (a tour booked for
    in an hour gets no 24 h reminder). The no-show follow-up stops when the prospect wrote since
    the tour began ("running late" is an answer); the reminders do not (a question is not a stop)."""
    planned = []
    for kind, offset, expiry in TOUR_STEPS:
        due = tour.scheduled_at + offset
        if due <= now:
            continue
        stop_on = list(StopOn) if kind == FollowUpKind.TOUR_NO_SHOW else _ALL_BUT_REPLY
        planned.append(FollowUp(id=f"{tour.id}-{kind}", person_id=tour.prospect_person_id, property_id=tour.property_id,
                                kind=kind, due_at=due, follows=Follows.TOUR, follows_id=tour.id, stop_on=stop_on,
                                reply_since=tour.scheduled_at if kind == FollowUpKind.TOUR_NO_SHOW else None,
                                expires_at=tour.scheduled_at + expiry,
                                created_at=now, created_by_interaction_id=interaction_id))
    return await _create_all(spine, planned)


async def plan_closeout(spine: Spine, wo: WorkOrder, reporter_id: str, *, now: datetime,
                        interaction_id: str | None = None) -> list[Notification]:
    """A completed work order: its reporter asked whether it is fixed and for a 1-5 rating. One per
    completion: a reopened and again completed work order is asked again (the id names the count)."""
    times = sum(1 for n in wo.notes if n.text.startswith("Reopened")) + 1
    fu = FollowUp(id=f"{wo.id}-closeout-{times}", person_id=reporter_id, property_id=wo.property_id,
                  kind=FollowUpKind.WORK_ORDER_CLOSEOUT, due_at=now + CLOSEOUT_AFTER, follows=Follows.WORK_ORDER,
                  follows_id=wo.id, stop_on=_ALL_BUT_REPLY, answer_within_s=ANSWER_WITHIN_S, created_at=now,
                  created_by_interaction_id=interaction_id)
    return await _create_all(spine, [fu])


async def plan_renewal(spine: Spine, renewal: RenewalWorkflow, tenant_id: str, property_id: str, lease_end: datetime,
                       *, now: datetime, interaction_id: str | None = None) -> list[Notification]:
    """A renewal offered: the offer 90, 60 and 30 days before the lease ends, while unanswered (an
    answer through `respond_to_renewal` changes the renewal, which stops the rest). A date already
    past is skipped, except the latest one, sent now, so an offer made late still reaches them."""
    dues = [lease_end - timedelta(days=d) for d in RENEWAL_DAYS_BEFORE]
    future = [d for d in dues if d > now] or ([now] if lease_end > now else [])
    planned = [FollowUp(id=f"{renewal.id}-offer-{due.date().isoformat()}", person_id=tenant_id, property_id=property_id,
                        kind=FollowUpKind.RENEWAL_OFFER, due_at=due, follows=Follows.RENEWAL, follows_id=renewal.id,
                        stop_on=_ALL_BUT_REPLY, created_at=now, created_by_interaction_id=interaction_id,
                        expires_at=lease_end, answer_within_s=RENEWAL_ANSWER_WITHIN_S)
               for due in future]
    return await _create_all(spine, planned)


async def plan_renewal_offer(spine: Spine, renewal: RenewalWorkflow, property_id: str, *, now: datetime,
                             interaction_id: str | None = None) -> list[Notification]:
    """`plan_renewal` for the unit's primary signer and its current lease (the renewal tool's hook)."""
    lease = await spine.current_lease(renewal.unit_id)
    residents = await spine.roles_scoped_to(keys.unit_roles(renewal.unit_id))
    primary = next((r.person_id for r in residents if r.role_type == PersonRoleType.TENANT
                    and r.scope.occupancy == OccupancyKind.PRIMARY and r.active), None)
    if lease is None or primary is None:
        return []
    prop = await spine.get_property(property_id)
    zone = ZoneInfo(prop.timezone if prop else "UTC")
    end = datetime.combine(lease.end, time(10, 0), tzinfo=zone).astimezone(UTC)  # the morning, in the window
    return await plan_renewal(spine, renewal, primary, property_id, end, now=now, interaction_id=interaction_id)


async def plan_open_renewals(spine: Spine, *, now: datetime) -> list[Notification]:
    """Plan the offers of every renewal still `offered` (one imported or seeded, not only one a
    manager sent through the tool). Idempotent, so the scheduler runs it once a day; it reads
    properties, units and their renewals, which is why it is daily and not every tick."""
    planned: list[Notification] = []
    for prop in await spine.list_properties():
        for unit in await spine.units_of(prop.id):
            for renewal in await spine.renewals_of_unit(unit.id):
                if renewal.status == RenewalStatus.OFFERED and renewal.offers:
                    planned += await plan_renewal_offer(spine, renewal, prop.id, now=now)
    return planned
