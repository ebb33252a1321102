"""New routine work orders reach the property's maintenance team (staff role `maintenance` at the
property or org-wide, else its managers), batched: at most one message per person per 15 minutes,
listing every routine work order opened in that slot.

A durable batch record per (person, slot) collects the work orders (compare-and-set, a retry adds
nothing); its one outbox row (queue_outbound, keyed by person and slot) is held to the slot's end
and takes the newest list while it waits, as the tenant's notices coalesce. Outside the contact
window the night's work orders are one slot, sent at 09:00 in the property's zone. An emergency
never waits here: it pages (desk.oncall.paging).
"""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import spine.keys as keys
from desk.oncall.paging import managers_of
from desk.outbound.contact_window import in_window, next_window
from desk.outbound.queue import Notification, NotificationKind, OutboundRequest, queue_outbound
from spine.identity import PersonRoleType
from spine.property import Property
from spine.repo import Spine
from spine.work import WorkOrder

BATCH_S = 15 * 60
LISTED = 6  # lines in one message; the rest are counted ("and 3 more")


async def maintenance_team(spine: Spine, prop: Property) -> list[str]:
    """Staff with the `maintenance` role at the property (or org-wide), else its managers."""
    roles = await spine.roles_scoped_to(keys.org_roles(prop.org_id))
    team = sorted({r.person_id for r in roles if r.role_type == PersonRoleType.MAINTENANCE
                   and r.scope.property_id in (None, prop.id)})
    return team or await managers_of(spine, prop.id, prop.org_id)


def batch_slot(now: datetime, prop: Property) -> tuple[str, datetime | None]:
    """The slot's name and when its message may go (its end); the night is one slot, no hold."""
    if not in_window(now, prop.timezone):
        return f"d{next_window(now, prop.timezone).date().isoformat()}", None
    start = datetime.fromtimestamp(int(now.timestamp()) // BATCH_S * BATCH_S, UTC)
    return f"q{start:%Y-%m-%dT%H%M}", start + timedelta(seconds=BATCH_S)


def _line(wo: WorkOrder, unit: str | None) -> str:
    return f"{wo.display_id} {wo.brief}" + (f" (unit {unit})" if unit and f"unit {unit}" not in wo.brief else "")


def batch_text(prop: Property, lines: list[str]) -> str:
    shown = "; ".join(lines[:LISTED]) + (f"; and {len(lines) - LISTED} more" if len(lines) > LISTED else "")
    noun = "work order" if len(lines) == 1 else f"{len(lines)} work orders"
    return f"{prop.name}: new routine {noun} logged, nobody has accepted yet: {shown}. The board: /admin/work-orders"


async def tell_team_of_routine(spine: Spine, wo: WorkOrder) -> list[Notification]:
    """Queue (or renew) each team member's batch message for the slot `wo` was opened in."""
    prop = await spine.get_property(wo.property_id)
    if prop is None or wo.priority == "emergency":
        return []
    unit = await spine.get_unit(wo.unit_id) if wo.unit_id else None
    slot, hold = batch_slot(spine.clock(), prop)
    told = []
    for person_id in await maintenance_team(spine, prop):
        lines = await spine.add_to_routine_batch(person_id, slot, _line(wo, unit.number if unit else None))
        told.append(await queue_outbound(spine, OutboundRequest(
            key=keys.routine_batch_notice(person_id, slot), kind=NotificationKind.STAFF,
            recipient_person_id=person_id, property_id=prop.id, body=batch_text(prop, lines),
            subject=f"{prop.name}: new work orders", not_before=hold, replace_pending=True)))
    return told
