"""Vendor dispatch: a work order assigned to a vendor is texted to the vendor's contacts, who
accept it with YES or pass with NO (ServiceChannel's dispatch by reply).

`start_dispatch` (pm_assign_vendor) withdraws any open dispatch of the work order and sends the
new one; `answer_dispatch` is the SMS keyword's: YES schedules the work order and tells the tenant
(desk.dispatch.notices), NO hands it back and tells the property's managers; `accept_by_page` takes a page
acknowledged by a vendor contact as that vendor's YES (no dispatch text: they already said yes); `due_dispatch_reminders` (the scheduler's tick) tells the managers of a
dispatch nobody accepted within `accept_within_s`. Every change is compare-and-set on the dispatch.
"""
from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, Field

import desk.dispatch.texts as texts
import spine.keys as keys
from desk.dispatch.notices import notify_work_order_change, tenant_to_tell, worth_a_notice
from desk.oncall.paging import managers_of
from desk.outbound.queue import Notification, NotificationKind, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.dispatch_record import Dispatch, DispatchStatus
from spine.events import emit_event
from spine.identity import PersonRoleType
from spine.records import EventKind
from spine.repo import Spine
from spine.work import Priority, WorkOrder, WorkOrderStatus

DEFAULT_ACCEPT_WITHIN_S = 3600
OPEN_STATUSES = (DispatchStatus.PENDING, DispatchStatus.OVERDUE)


class DispatchOutcome(StrEnum):
    """What a vendor's YES or NO did to a dispatch."""

    ACCEPTED = "accepted"
    DECLINED = "declined"
    AMBIGUOUS = "ambiguous"  # they hold more than one open dispatch and named none
    ALREADY = "already"  # someone answered it first


class DispatchAnswer(BaseModel):
    """What a YES or NO did: the reply to the vendor and what it queued for others."""

    outcome: DispatchOutcome
    reply: str
    dispatch_id: str | None = None
    notifications: list[Notification] = Field(default_factory=list)


async def start_dispatch(spine: Spine, wo: WorkOrder, vendor_id: str, *, by_person_id: str | None) -> list[Notification]:
    """Send `wo` to every contact of the vendor (by SMS: YES/NO is an SMS keyword); [] when the
    vendor has no contact to text. Any other open dispatch of the work order is withdrawn."""
    prop = await spine.get_property(wo.property_id)
    contacts = sorted({r.person_id for r in await spine.roles_scoped_to(keys.vendor_roles(vendor_id))
                       if r.role_type == PersonRoleType.VENDOR_CONTACT})
    await _withdraw(spine, wo.id)
    if prop is None or not contacts:
        return []
    unit = await spine.get_unit(wo.unit_id) if wo.unit_id else None
    number = await spine.next_sequence(f"dispatch_{wo.id}")
    dispatch = Dispatch(id=f"dp_{wo.id}_{number}", work_order_id=wo.id, work_order_display_id=wo.display_id,
                        vendor_id=vendor_id, property_id=prop.id, contact_person_ids=contacts, sent_at=spine.clock(),
                        sent_by_person_id=by_person_id)
    await spine.create_dispatch(dispatch)
    body = texts.dispatch_sms(wo, prop, unit)
    return [await queue_outbound(spine, OutboundRequest(
        key=keys.dispatch_notice(dispatch.id, person_id), kind=NotificationKind.DISPATCH, recipient_person_id=person_id,
        property_id=prop.id, body=body, channel=Channel.SMS, urgent=wo.priority == Priority.EMERGENCY))
        for person_id in contacts]


async def _withdraw(spine: Spine, work_order_id: str) -> None:
    for dispatch in await _open(spine):
        if dispatch.work_order_id == work_order_id:
            await _settle(spine, dispatch, DispatchStatus.WITHDRAWN, None)


async def _open(spine: Spine) -> list[Dispatch]:
    return [d for status in OPEN_STATUSES for d in await spine.dispatches(status)]


async def _settle(spine: Spine, dispatch: Dispatch, status: DispatchStatus, by: str | None) -> Dispatch | None:
    """Move an open dispatch to `status`; None when it was no longer open (someone answered first)."""
    def settle(current: Dispatch | None) -> Dispatch | None:
        if current is None or not current.status.open:
            return None
        return current.model_copy(update={"status": status, "answered_by_person_id": by or current.answered_by_person_id,
                                          "answered_at": spine.clock() if by else current.answered_at})

    # One try, as before: a lost race means another answer (or the reminder) came first.
    return (await spine.change_dispatch(dispatch.id, settle, tries=1)).after


async def answer_dispatch(spine: Spine, person_id: str, *, accept: bool, work_order: str | None) -> DispatchAnswer | None:
    """A vendor contact's YES or NO (optionally naming the work order); None when they hold no open
    dispatch it could answer (the text is then an ordinary message)."""
    vendors = {r.scope.vendor_id for r in await spine.roles_of(person_id) if r.role_type == PersonRoleType.VENDOR_CONTACT}
    if not vendors:  # a tenant's "yes" answers Clara: no dispatch read before their turn
        return None
    # Only a vendor still active and serving the dispatch's property may take it (as a page's ACK:
    # `_vendor_serving`): a vendor ended since the dispatch was sent no longer accepts it by YES.
    held = [d for d in await _open(spine) if d.vendor_id in vendors and await _serves(spine, d.vendor_id, d.property_id)]
    if work_order:
        held = [d for d in held if d.work_order_display_id.upper() == work_order.upper()]
    if not held:
        return None
    if len(held) > 1:
        return DispatchAnswer(outcome=DispatchOutcome.AMBIGUOUS, reply=texts.which_one(held, "YES" if accept else "NO"))
    dispatch = held[0]
    settled = await _settle(spine, dispatch, DispatchStatus.ACCEPTED if accept else DispatchStatus.DECLINED, person_id)
    found = await spine.get_dispatch(dispatch.id)
    if settled is None:
        return DispatchAnswer(outcome=DispatchOutcome.ALREADY, reply=texts.already_answered(found[0] if found else dispatch),
                              dispatch_id=dispatch.id)
    if accept:
        return await _accepted(spine, settled, person_id)
    return await _declined(spine, settled, person_id)


async def _accepted(spine: Spine, dispatch: Dispatch, person_id: str) -> DispatchAnswer:
    wo, name, tenant = await _take(spine, dispatch, person_id, reason="accepted", note="", already_told=None)
    prop = await spine.get_property(dispatch.property_id)
    assert prop is not None  # a dispatch names a property on file
    unit = await spine.get_unit(wo.unit_id) if wo.unit_id else None
    reply = texts.accepted_reply(name.split()[0], wo, prop, unit, tenant)
    return DispatchAnswer(outcome=DispatchOutcome.ACCEPTED, reply=reply, dispatch_id=dispatch.id, notifications=tenant)


async def _take(spine: Spine, dispatch: Dispatch, person_id: str, *, reason: str, note: str,
                already_told: str | None) -> tuple[WorkOrder, str, list[Notification]]:
    """The one accept path (a YES, or a page acknowledged by the contact): the work order goes to
    the dispatch's vendor, scheduled, `dispatch/accepted`, and the tenant's notice unless the
    tenant is `already_told`. Returns the work order, the acceptor's name and the notices queued."""
    wo = await spine.get_work_order(dispatch.work_order_id)
    person = await spine.get_person(person_id)
    assert wo is not None  # a dispatch names a work order on file
    before, previous = (wo.status, wo.eta), wo.assigned_vendor_id
    if wo.status in (WorkOrderStatus.OPEN, WorkOrderStatus.DISPATCHED):
        wo.status = WorkOrderStatus.SCHEDULED
    wo.assigned_vendor_id = dispatch.vendor_id
    name = person.display_name if person else person_id
    moved = f"; assigned to {dispatch.vendor_id}" + (f" (was {previous})" if previous else "") \
        if previous != dispatch.vendor_id else ""
    await spine.note_work_order(wo, person_id, f"Dispatch accepted by {name}{note}{moved}", updated_at=spine.clock())
    reassigned = {"previous_vendor_id": previous} if previous != dispatch.vendor_id else None
    await _event(spine, EventKind.DISPATCH_ACCEPTED, dispatch, person_id, reason=reason, extra=reassigned)
    tell = worth_a_notice(*before, wo) and await tenant_to_tell(spine, wo) != already_told
    tenant = await notify_work_order_change(spine, wo, changed_by=person_id) if tell else []
    return wo, name, tenant


async def _declined(spine: Spine, dispatch: Dispatch, person_id: str) -> DispatchAnswer:
    wo = await spine.get_work_order(dispatch.work_order_id)
    prop = await spine.get_property(dispatch.property_id)
    vendor = await spine.get_vendor(dispatch.vendor_id)
    person = await spine.get_person(person_id)
    assert wo is not None and prop is not None  # a dispatch names a work order and property on file
    name, vendor_name = person.display_name if person else person_id, vendor.name if vendor else dispatch.vendor_id
    if wo.assigned_vendor_id == dispatch.vendor_id and wo.is_open:
        wo.assigned_vendor_id, wo.status, wo.eta = None, WorkOrderStatus.OPEN, None
    await spine.note_work_order(wo, person_id, f"Dispatch declined by {name} ({vendor_name})", updated_at=spine.clock())
    await _event(spine, EventKind.DISPATCH_DECLINED, dispatch, person_id)
    staff = await _tell_managers(spine, dispatch.id, wo, "declined", texts.staff_declined(vendor_name, name, wo, prop))
    return DispatchAnswer(outcome=DispatchOutcome.DECLINED, reply=texts.declined_reply(wo, staff), dispatch_id=dispatch.id,
                          notifications=staff)


async def handed_back(spine: Spine, wo: WorkOrder, vendor_id: str | None, person_id: str | None,
                      reason: str) -> list[Notification]:
    """A vendor gave an assigned work order back through Clara (handoff_to_other_vendor): its open
    dispatch is withdrawn and the property's managers are told, as for a NO."""
    await _withdraw(spine, wo.id)
    prop = await spine.get_property(wo.property_id)
    vendor = await spine.get_vendor(vendor_id) if vendor_id else None
    person = await spine.get_person(person_id) if person_id else None
    if prop is None:
        return []
    who = person.display_name if person else "their contact"
    body = texts.staff_declined(vendor.name if vendor else "The vendor", who, wo, prop) + f" Reason: {reason}"
    # One hand-back, one message per manager: the work order's note count names this hand-back.
    return await _tell_managers(spine, keys.work_order_handoff(wo.id, len(wo.notes)), wo, "declined", body)


async def _tell_managers(spine: Spine, about: str, wo: WorkOrder, what: str, body: str) -> list[Notification]:
    """Each manager of the work order's property, once per (`about`, `what`)."""
    prop = await spine.get_property(wo.property_id)
    managers = await managers_of(spine, wo.property_id, prop.org_id if prop else None)
    return [await queue_outbound(spine, OutboundRequest(
        key=keys.dispatch_staff_notice(about, manager, what), kind=NotificationKind.STAFF,
        recipient_person_id=manager, property_id=wo.property_id, body=body,
        subject=f"{wo.display_id}: dispatch {what}", urgent=wo.priority == Priority.EMERGENCY))
        for manager in managers]


async def due_dispatch_reminders(spine: Spine, *, accept_within_s: float = DEFAULT_ACCEPT_WITHIN_S,
                                 now: datetime | None = None) -> list[Notification]:
    """Tell the managers of every dispatch still not accepted `accept_within_s` after it was sent
    (once: the dispatch becomes overdue, and a YES still takes it). The scheduler's tick calls it."""
    now, told = now or spine.clock(), []
    for dispatch in await spine.dispatches(DispatchStatus.PENDING):
        if dispatch.sent_at + timedelta(seconds=accept_within_s) > now:
            break  # oldest first: the rest are younger
        overdue = await _settle(spine, dispatch, DispatchStatus.OVERDUE, None)
        wo = await spine.get_work_order(dispatch.work_order_id)
        vendor = await spine.get_vendor(dispatch.vendor_id)
        prop = await spine.get_property(dispatch.property_id)
        if overdue is None or wo is None or prop is None:
            continue
        body = texts.staff_overdue(vendor.name if vendor else dispatch.vendor_id, wo, prop, int(accept_within_s // 60))
        told += await _tell_managers(spine, overdue.id, wo, "overdue", body)
    return told


async def accept_by_page(spine: Spine, work_order_id: str, person_id: str, *,
                         already_told: str | None) -> Dispatch | None:
    """A page acknowledged by a vendor contact: the ACK is the vendor's acceptance of the page's
    work order, through the YES path (`_take`, reason `page_acknowledged`), recorded as a dispatch
    accepted by them, so no "Reply YES" is sent and a later YES or NO finds nothing pending. None
    when the acknowledger speaks for no vendor serving the property (staff) or the work order is closed.
    `already_told`: the person the ACK itself told who has it (their tenant notice would say it twice)."""
    wo = await spine.get_work_order(work_order_id)
    vendor_id = await _vendor_serving(spine, person_id, wo) if wo is not None and wo.is_open else None
    if wo is None or vendor_id is None:
        return None
    dispatch = await _accepted_record(spine, wo, vendor_id, person_id)
    await _take(spine, dispatch, person_id, reason="page_acknowledged", note=" (on-call page acknowledged)",
                already_told=already_told)
    return dispatch


async def _vendor_serving(spine: Spine, person_id: str, wo: WorkOrder) -> str | None:
    """The vendor the person is a contact of that serves the work order's property (the one already
    assigned, if it is one of them)."""
    serving = []
    for role in await spine.roles_of(person_id):
        if role.role_type != PersonRoleType.VENDOR_CONTACT or not role.scope.vendor_id:
            continue
        if await _serves(spine, role.scope.vendor_id, wo.property_id):
            serving.append(role.scope.vendor_id)
    return wo.assigned_vendor_id if wo.assigned_vendor_id in serving else min(serving, default=None)


async def _serves(spine: Spine, vendor_id: str, property_id: str) -> bool:
    vendor = await spine.get_vendor(vendor_id)
    return vendor is not None and vendor.active and property_id in vendor.services_property_ids


async def _accepted_record(spine: Spine, wo: WorkOrder, vendor_id: str, person_id: str) -> Dispatch:
    """The vendor's open dispatch of `wo` settled as accepted, else a new one recorded accepted;
    any other open dispatch of it is withdrawn."""
    for dispatch in await _open(spine):
        if dispatch.work_order_id != wo.id:
            continue
        if dispatch.vendor_id == vendor_id and (taken := await _settle(spine, dispatch, DispatchStatus.ACCEPTED,
                                                                       person_id)) is not None:
            return taken
        await _settle(spine, dispatch, DispatchStatus.WITHDRAWN, None)
    now = spine.clock()
    number = await spine.next_sequence(f"dispatch_{wo.id}")
    dispatch = Dispatch(id=f"dp_{wo.id}_{number}", work_order_id=wo.id, work_order_display_id=wo.display_id,
                        vendor_id=vendor_id, property_id=wo.property_id, contact_person_ids=[person_id], sent_at=now,
                        status=DispatchStatus.ACCEPTED, answered_by_person_id=person_id, answered_at=now)
    await spine.create_dispatch(dispatch)
    return dispatch


async def settle_by_tool(spine: Spine, wo: WorkOrder, vendor_id: str | None, person_id: str | None) -> None:
    """A vendor accepted through Clara (accept_dispatch): their open dispatch of it is accepted too."""
    for dispatch in await _open(spine):
        if dispatch.work_order_id == wo.id and dispatch.vendor_id == vendor_id:
            settled = await _settle(spine, dispatch, DispatchStatus.ACCEPTED, person_id)
            if settled is not None:
                await _event(spine, EventKind.DISPATCH_ACCEPTED, settled, person_id)


async def _event(spine: Spine, kind: EventKind, dispatch: Dispatch, person_id: str | None, *,
                 reason: str | None = None, extra: dict[str, str | None] | None = None) -> None:
    reason = reason or ("accepted" if kind == EventKind.DISPATCH_ACCEPTED else "declined")
    detail = {"dispatch_id": dispatch.id, "work_order": dispatch.work_order_display_id,
              "vendor_id": dispatch.vendor_id, "person_id": person_id, **(extra or {})}
    await emit_event(spine, kind, reason, channel=Channel.SMS, address=None, property_id=dispatch.property_id,
                     interaction_id=None, detail=detail)
