"""Acknowledging a page (`ACK` by text, 1 on the paging call) and passing it on (2 on the call).

An acknowledgement is a compare-and-set of the page to `acknowledged`: the one that wins stops the
ladder (the scheduler takes no further step, the sender sends no pending row of it), tells the
reporter who has it on their channel, notes it on the work order and emits `oncall/acknowledged`.
A vendor contact's acknowledgement is also their vendor's acceptance of the work order
(desk.dispatch.dispatch.accept_by_page); a staff member's changes nothing about dispatch.
"""
from __future__ import annotations

import re
from datetime import datetime

from pydantic import BaseModel, Field

import desk.oncall.texts as texts
import spine.keys as keys
from desk.dispatch.dispatch import accept_by_page
from desk.outbound.queue import Notification, NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.escalation import EscalationStatus
from spine.events import emit_event
from spine.identity import PersonRoleType
from spine.oncall import TAKEN_PAGE_KEPT_S, Page, PageStatus, PageVia
from spine.records import EventKind
from spine.repo import Spine

ACK_WORD = re.compile(r"^\s*ack(?:\s+(\d{4}))?\s*[.!]?\s*$", re.IGNORECASE)
_ACKABLE = frozenset({PageStatus.PAGING, PageStatus.EXHAUSTED})  # a late answer still takes it
_CAS_ATTEMPTS = 5


class AckOutcome(BaseModel):
    acknowledged: bool  # this acknowledgement took the page
    page: Page | None = None
    reply: str = ""  # what the acknowledger is told
    notifications: list[Notification] = Field(default_factory=list)


async def acknowledge(spine: Spine, page_id: str, person_id: str, via: PageVia, *,
                      now: datetime | None = None) -> AckOutcome:
    def take(page: Page | None) -> Page | None:
        if page is None or page.status not in _ACKABLE:
            return None
        return page.model_copy(update={"status": PageStatus.ACKNOWLEDGED, "acknowledged_by": person_id,
                                       "acknowledged_via": via, "acknowledged_at": now or spine.clock()})

    changed = await spine.change_page(page_id, take, tries=_CAS_ATTEMPTS)
    if changed.after is not None:
        return await _after_ack(spine, changed.after)
    if changed.lost:
        return AckOutcome(acknowledged=False, page=None, reply="The page is changing right now; reply ACK again.")
    if changed.before is None:
        return AckOutcome(acknowledged=False)
    return AckOutcome(acknowledged=False, page=changed.before, reply=await _taken_reply(spine, changed.before))


async def _taken_reply(spine: Spine, page: Page) -> str:
    person = await spine.get_person(page.acknowledged_by or "")
    return texts.already_taken(person.display_name if person else "Someone", page)


async def _after_ack(spine: Spine, page: Page) -> AckOutcome:
    person = await spine.get_person(page.acknowledged_by or "")
    name = person.display_name.split()[0] if person else "Someone"
    prop = await spine.get_property(page.property_id)
    prop_name = prop.name if prop else page.property_id
    notifications = []
    if page.reporter_person_id and page.reporter_person_id != page.acknowledged_by:
        notifications.append(await queue_outbound(spine, OutboundRequest(
            key=keys.page_reporter_notice(page.id, "acknowledged"), kind=NotificationKind.NOTIFY,
            recipient_person_id=page.reporter_person_id, property_id=page.property_id, urgent=True,
            body=texts.reporter_has_it(name, await team_of(spine, page.acknowledged_by or "", page.language),
                                       page.language))))
    await _note(spine, page, name)
    dispatched_to = await _accept_dispatch(spine, page, notifications)
    await emit_event(spine, EventKind.ONCALL_ACKNOWLEDGED, str(page.acknowledged_via), channel=None, address=None,
                     property_id=page.property_id, interaction_id=None,
                     detail={"page_id": page.id, "acknowledged_by": page.acknowledged_by, "pass": page.pass_number + 1,
                             "level": page.level + 1, "work_order": page.work_order_display_id})
    told = None if not notifications else notifications[0].status != NotificationStatus.BLOCKED
    reply = texts.ack_confirmation(page, prop_name, prop.address if prop else "", told, dispatched_to)
    return AckOutcome(acknowledged=True, page=page, reply=reply, notifications=notifications)


async def _accept_dispatch(spine: Spine, page: Page, told: list[Notification]) -> str | None:
    """A vendor contact's ACK is their vendor's acceptance of the page's work order (desk.dispatch.dispatch);
    the vendor's name, or None when nothing was dispatched (a staff acknowledger, no work order).
    The tenant's "It is scheduled" notice is not queued for a reporter the ACK already told "Mike
    from maintenance has it": sent at once for an emergency, it would be a second message saying
    the same thing; a tenant other than the reporter (the unit's resident) still gets it."""
    if not page.work_order_id or not page.acknowledged_by:
        return None
    already_told = told[0].recipient_person_id if told else None
    dispatch = await accept_by_page(spine, page.work_order_id, page.acknowledged_by, already_told=already_told)
    if dispatch is None:
        return None
    vendor = await spine.get_vendor(dispatch.vendor_id)
    return vendor.name if vendor else dispatch.vendor_id


async def _note(spine: Spine, page: Page, name: str) -> None:
    if page.work_order_id and (wo := await spine.get_work_order(page.work_order_id)) is not None:
        await spine.note_work_order(wo, page.acknowledged_by,
                                    f"On-call page acknowledged by {name} ({page.acknowledged_via})",
                                    updated_at=spine.clock())
    esc = await spine.get_escalation(page.escalation_id) if page.escalation_id else None
    if esc is not None and esc.status == EscalationStatus.OPEN:
        await spine.put_escalation(esc.model_copy(update={"status": EscalationStatus.ACKNOWLEDGED}))


async def team_of(spine: Spine, person_id: str, language: str = "en") -> str:
    """'maintenance', the vendor's name, or 'the property team': who the reporter hears has it."""
    roles = await spine.roles_of(person_id)
    vendor_role = next((r for r in roles if r.role_type == PersonRoleType.VENDOR_CONTACT and r.scope.vendor_id), None)
    vendor = await spine.get_vendor(vendor_role.scope.vendor_id or "") if vendor_role else None
    return texts.team_label({str(r.role_type) for r in roles}, vendor.name if vendor else None,
                            bool(vendor and vendor.in_house), language)


async def pass_page(spine: Spine, page_id: str, person_id: str, *, now: datetime | None = None) -> bool:
    """2 on the call: the next level is due now, if the person is on the level being paged."""
    def due_now(page: Page | None) -> Page | None:
        if page is None or not page.is_open or page.step < 0 or person_id not in page.plan.levels[page.level]:
            return None
        return page.model_copy(update={"next_due": now or spine.clock()})

    return (await spine.change_page(page_id, due_now, tries=_CAS_ATTEMPTS)).after is not None


async def _taken_by_another(spine: Spine, pages: list[Page], person_id: str) -> AckOutcome | None:
    """An ACK for a page someone else took within the last hour: say who has it (not a turn)."""
    recent = [p for p in pages if p.status == PageStatus.ACKNOWLEDGED and p.acknowledged_by != person_id
              and p.acknowledged_at is not None and (spine.clock() - p.acknowledged_at).total_seconds() < TAKEN_PAGE_KEPT_S]
    if not recent:
        return None
    return AckOutcome(acknowledged=False, page=recent[-1], reply=await _taken_reply(spine, recent[-1]))


async def ack_by_text(spine: Spine, person_id: str, text: str) -> AckOutcome | None:
    """An SMS `ACK` / `ACK <code>` from a Person who holds an open page; None when the text is not
    one or they hold none (then it is an ordinary message for the agent)."""
    match = ACK_WORD.match(text)
    if match is None:
        return None
    every = await spine.pages_held_by(person_id)
    held = [p for p in every if p.status in _ACKABLE]
    if not held:
        return await _taken_by_another(spine, every, person_id)
    code = match.group(1)
    if code is not None:
        named = [p for p in held if p.code == code]
        if len(named) != 1:
            return AckOutcome(acknowledged=False, reply=texts.ack_unknown_code(held))
        return await acknowledge(spine, named[0].id, person_id, PageVia.SMS)
    if len(held) > 1:
        return AckOutcome(acknowledged=False, reply=texts.ack_ambiguous(held))
    return await acknowledge(spine, held[0].id, person_id, PageVia.SMS)
