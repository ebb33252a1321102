"""Tenants told when their work order moves: a vendor or staff member sets or changes the ETA, or
the work order becomes scheduled, in progress or completed (EliseAI texts residents so).

To the work order's reporter when they are a tenant, else the unit's primary resident; never to
the one who made the change. Through queue_outbound, so on their last channel, within 09:00-19:00
in the property's zone (deferred to the next 09:00 otherwise) and never to an opted-out person; an
emergency work order's notice goes at once. Changes within one minute are one message: the row
is held to the end of its minute and takes the newest words while it waits; changes made outside
the window wait in one row for the morning.
"""
from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

import spine.keys as keys
from desk.followups.plans import plan_closeout
from desk.outbound.contact_window import in_window, next_window
from desk.outbound.queue import Notification, NotificationKind, OutboundRequest, queue_outbound
from spine.identity import OccupancyKind, PersonRoleType
from spine.property import Property
from spine.repo import Spine
from spine.work import Priority, WorkOrder, WorkOrderStatus

NOTICE_STATUSES = frozenset({WorkOrderStatus.SCHEDULED, WorkOrderStatus.IN_PROGRESS, WorkOrderStatus.COMPLETED})
COALESCE_S = 60
_LETTERS = str.maketrans("0123456789", "ghijklmnop")


def worth_a_notice(before_status: str, before_eta: str | None, wo: WorkOrder) -> bool:
    """Whether a change tells the tenant something: a new ETA, or a move to a status they care about."""
    moved = wo.status != before_status and wo.status in NOTICE_STATUSES
    return moved or (bool(wo.eta) and wo.eta != before_eta and wo.status != WorkOrderStatus.COMPLETED)


async def save_with_notice(spine: Spine, wo: WorkOrder, before: tuple[str, str | None], *,
                           changed_by: str | None, note: str | None = None) -> list[Notification]:
    """Write a changed work order (with `note` by `changed_by` added) and tell its tenant when the
    change is worth it (`before`: its status and ETA as read): the one path of a vendor's change
    (tools) and a staff member's (the console), so both reach the tenant alike."""
    await spine.note_work_order(wo, changed_by, note, updated_at=None)
    return await notify_work_order_change(spine, wo, changed_by=changed_by) if worth_a_notice(*before, wo) else []


async def tenant_to_tell(spine: Spine, wo: WorkOrder) -> str | None:
    """The reporter when they live here (a resident of the unit, or anywhere for a common area),
    else the unit's primary resident. A guarantor signs for the lease and does not live there:
    the visit notices (a vendor at the door, an ETA) go to the resident (issue 40 item 13)."""
    if wo.created_by_person_id:
        roles = await spine.roles_of(wo.created_by_person_id)
        if any(r.role_type == PersonRoleType.TENANT and r.scope.occupancy != OccupancyKind.GUARANTOR
               and (wo.unit_id is None or r.scope.unit_id == wo.unit_id) for r in roles):
            return wo.created_by_person_id
    if wo.unit_id is None:
        return None
    residents = await spine.roles_scoped_to(keys.unit_roles(wo.unit_id))
    return next((r.person_id for r in residents if r.role_type == PersonRoleType.TENANT
                 and r.scope.occupancy == OccupancyKind.PRIMARY), None)


async def notify_work_order_change(spine: Spine, wo: WorkOrder, *, changed_by: str | None) -> list[Notification]:
    """Queue the tenant's notice of `wo` as it stands now; [] when there is nobody to tell. A
    completion also plans the reporter's close-out (is it fixed, a 1-5 rating: desk.followups)."""
    recipient = await tenant_to_tell(spine, wo)
    if recipient is None:
        return []
    closeout = await plan_closeout(spine, wo, recipient, now=spine.clock()) \
        if wo.status == WorkOrderStatus.COMPLETED else []
    if recipient == changed_by:
        return closeout
    prop = await spine.get_property(wo.property_id)
    if prop is None:
        return []
    last = await spine.last_contact(recipient)
    body = await notice_text(spine, wo, prop, changed_by, last.language if last else None)
    urgent = wo.priority == Priority.EMERGENCY
    slot, hold = _slot(spine.clock(), prop, urgent, body)
    request = OutboundRequest(key=keys.work_order_notice(wo.id, recipient, slot), kind=NotificationKind.NOTIFY,
                              recipient_person_id=recipient, property_id=prop.id, body=body,
                              subject=f"{prop.name}: an update on {wo.display_id}", urgent=urgent, not_before=hold,
                              replace_pending=True)
    return [await queue_outbound(spine, request), *closeout]


def _slot(now: datetime, prop: Property, urgent: bool, body: str) -> tuple[str, datetime | None]:
    """The part of the row's key that coalesces, and how long the row is held for it."""
    # Slots are spelled without long digit runs: event details mask those as phone numbers.
    if urgent:  # at once: each distinct update is its own message (a retry of one is the same row)
        return "e" + hashlib.sha256(body.encode()).hexdigest()[:12].translate(_LETTERS), None
    if not in_window(now, prop.timezone):  # the night's changes: one message at 09:00
        return f"d{next_window(now, prop.timezone).date().isoformat()}", None
    start = datetime.fromtimestamp(int(now.timestamp()) // COALESCE_S * COALESCE_S, UTC)
    return f"m{start:%Y-%m-%dT%H%M}", start + timedelta(seconds=COALESCE_S)


_STATUS_WORDS = {  # (English, Spanish)
    WorkOrderStatus.SCHEDULED: ("It is scheduled.", "Ya está programada."),
    WorkOrderStatus.IN_PROGRESS: ("The work is in progress.", "El trabajo está en curso."),
    WorkOrderStatus.COMPLETED: ("The work is completed. If anything is still wrong, just reply here.",
                                "El trabajo está terminado. Si algo sigue mal, responda aquí."),
}


async def notice_text(spine: Spine, wo: WorkOrder, prop: Property, changed_by: str | None,
                      language: str | None = None) -> str:
    """In the language the tenant last wrote in (English unless it was Spanish)."""
    es = language == "es"
    text = f"{prop.name}: " + (f"novedades de {wo.display_id} ({wo.brief})." if es
                               else f"an update on {wo.display_id} ({wo.brief}).")
    if wo.status in _STATUS_WORDS:
        text += " " + _STATUS_WORDS[WorkOrderStatus(wo.status)][1 if es else 0]
    if wo.eta and wo.status != WorkOrderStatus.COMPLETED:
        who = await _who(spine, wo, changed_by, es)
        text += f" {who} llegará: {wo.eta}." if es else f" {who} expects to be there: {wo.eta}."
    return text


async def _who(spine: Spine, wo: WorkOrder, changed_by: str | None, es: bool) -> str:
    """'Mike from JP Yale in-house maintenance' when a contact of the assigned vendor made the change."""
    vendor = await spine.get_vendor(wo.assigned_vendor_id) if wo.assigned_vendor_id else None
    if vendor is None:
        return "El técnico" if es else "The technician"
    person = await spine.get_person(changed_by) if changed_by else None
    if person is not None and any(r.role_type == PersonRoleType.VENDOR_CONTACT and r.scope.vendor_id == vendor.id
                                  for r in await spine.roles_of(person.id)):
        return f"{person.display_name.split()[0]} {'de' if es else 'from'} {vendor.name}"
    return vendor.name
