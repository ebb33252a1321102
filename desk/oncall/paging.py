"""Pages: an emergency's escalation ladder over a property's on-call plan, kept in the store.

`start_page` copies the plan onto a new Page and takes its first step; `advance_page` takes the
next step of a ladder that is due (the scheduler calls it every tick): the next level's people
each get a text and a call, or, when the ladder and its repeats are spent, the property's
managers and the reporter are told (`oncall/exhausted`). A step's outbox rows are keyed by
(page, pass, level, person), so taking a step twice queues nothing twice, and the page moves on
only by compare-and-set: whoever drives the ladder (a tool, the scheduler, a restarted one), each
step happens once and none is skipped. The outbox sender sends no row of an acknowledged page.
"""
from __future__ import annotations

import logging
import random
import secrets
from datetime import datetime, timedelta

from pydantic import BaseModel, Field

import desk.oncall.texts as texts
import spine.keys as keys
from desk.oncall.people import eligible_plan
from desk.outbound.queue import Notification, NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.events import emit_event
from spine.identity import PersonRoleType
from spine.oncall import OnCallPlan, Page, PageStatus
from spine.records import EventKind
from spine.repo import Spine

log = logging.getLogger("clara.oncall")
MANAGER_ROLES = frozenset({PersonRoleType.PM, PersonRoleType.ORG_ADMIN})


class PageRequest(BaseModel):
    """What starts a page: an emergency work order or an urgent escalation."""

    page_id: str  # stable for what it is about (pg_wo_7, pg_esc_...): a replayed start pages once
    property_id: str
    reason: str
    unit: str | None = None
    work_order_id: str | None = None
    work_order_display_id: str | None = None
    escalation_id: str | None = None
    reporter_person_id: str | None = None
    language: str = "en"
    interaction_id: str | None = None
    channel: Channel | None = None


class PageStart(BaseModel):
    """What a tool result tells the model about the page, exactly: started (to whom, how many
    levels), already running for this turn, or no plan (nobody was reached automatically)."""

    status: PageStatus
    page_id: str | None = None
    levels: int = 0
    paged: list[str] = Field(default_factory=list)  # the names of the people paged first
    notifications: list[Notification] = Field(default_factory=list)


async def start_page(spine: Spine, request: PageRequest, *, now: datetime | None = None,
                     rng: random.Random | None = None) -> PageStart:
    """`rng` draws the page's code (tests inject a seeded one; by default the system's)."""
    now = now or spine.clock()
    if request.interaction_id and not await _claim_for_interaction(spine, request):
        found = await spine.store.get(keys.interaction_page(request.interaction_id))
        page = await _join(spine, found.data["page_id"], request) if found else None
        return await _started(spine, page, []) if page else PageStart(status=PageStatus.NONE)
    stored = await spine.get_oncall_plan(request.property_id)
    plan = await eligible_plan(spine, stored) if stored is not None else None  # issue 40 item 10
    if plan is None:
        await _no_plan(spine, request)
        return PageStart(status=PageStatus.NONE)
    prop = await spine.get_property(request.property_id)
    page = Page(id=request.page_id, property_id=request.property_id, org_id=prop.org_id if prop else None, plan=plan,
                created_at=now, next_due=now, code=await _fresh_code(spine, plan, rng or secrets.SystemRandom()),
                **request.model_dump(exclude={"page_id", "property_id", "interaction_id", "channel"}))
    if not await spine.create_page(page):
        existing = await spine.get_page(request.page_id)
        return await _started(spine, existing, []) if existing else PageStart(status=PageStatus.NONE)
    if request.escalation_id:
        await spine.link_escalation_page(request.escalation_id, page.id)
    notifications = []
    current = await spine.read_page(page.id)
    if current is not None:  # take step 0 now; if this process dies first, the scheduler takes it
        notifications = await advance_page(spine, *current, now=now)
    return await _started(spine, await spine.get_page(page.id) or page, notifications)


async def _fresh_code(spine: Spine, plan: OnCallPlan, rng: random.Random) -> str:
    """A 4-digit code no untaken page held by the plan's people has: `ACK <code>` from someone
    holding two pages with one code names neither, and that page could then not be taken by code."""
    taken = {p.code for person_id in plan_people(plan) for p in await spine.open_pages_held_by(person_id)}
    free = [c for c in (f"{n:04d}" for n in range(10000)) if c not in taken]
    code = f"{rng.randrange(10000):04d}"
    return code if code not in taken or not free else rng.choice(free)


async def _claim_for_interaction(spine: Spine, request: PageRequest) -> bool:
    return await spine.claim_interaction_page(request.interaction_id or "", request.page_id)


async def _join(spine: Spine, page_id: str, request: PageRequest) -> Page | None:
    """The turn's page, now knowing the work order or escalation of this second start too (the
    steps still to come name it)."""
    def fill(page: Page | None) -> Page | None:
        if page is None:
            return None
        missing = {name: getattr(request, name) for name in ("work_order_id", "work_order_display_id", "escalation_id",
                                                              "unit") if getattr(page, name) is None}
        return page.model_copy(update=missing) if any(missing.values()) else None

    changed = await spine.change_page(page_id, fill, tries=3)
    if changed.before is None:
        return None
    if not changed.lost and request.escalation_id:
        await spine.link_escalation_page(request.escalation_id, page_id)
    return await spine.get_page(page_id)


async def _no_plan(spine: Spine, request: PageRequest) -> None:
    log.warning("NO ON-CALL PLAN for %s: page %s (%s) reached nobody; set one with `gateway oncall set`",
                request.property_id, request.page_id, request.reason)
    await emit_event(spine, EventKind.ONCALL_NO_PLAN, "no_plan", channel=request.channel, address=None,
                     property_id=request.property_id, interaction_id=request.interaction_id,
                     detail={"page_id": request.page_id, "work_order": request.work_order_display_id,
                             "escalation_id": request.escalation_id})


async def _started(spine: Spine, page: Page, notifications: list[Notification]) -> PageStart:
    first = page.plan.levels[0]
    names = [p.display_name for p in [await spine.get_person(pid) for pid in first] if p is not None]
    return PageStart(status=page.status, page_id=page.id, levels=len(page.plan.levels), paged=names,
                     notifications=notifications)


async def advance_page(spine: Spine, page: Page, version: int, *, now: datetime | None = None) -> list[Notification]:
    """Take the page's next step if it is due and still running; what it queued (nothing when
    another driver moved the page first)."""
    now = now or spine.clock()
    if not page.is_open or page.next_due > now:
        return []
    step = page.step + 1
    if step >= page.steps:
        return await _exhaust(spine, page, version)
    plan = page.plan
    level = plan.levels[step % len(plan.levels)]
    prop = await spine.get_property(page.property_id)
    name = prop.name if prop else page.property_id
    notifications: list[Notification] = []
    for person_id in level:
        await spine.hold_page(person_id, page.id)  # before the text leaves: their ACK must find it
        notifications += await _page_person(spine, page, step, person_id, name)
    moved = page.model_copy(update={"step": step, "next_due": now + timedelta(seconds=plan.ack_timeout_s),
                                    "paged_person_ids": [*page.paged_person_ids,
                                                         *(p for p in level if p not in page.paged_person_ids)]})
    if not await spine.replace_page(moved, version, before=page):
        return []
    if await spine.mark_once(keys.page_step_marker(page.id, moved.pass_number, moved.level)):
        await emit_event(spine, EventKind.ONCALL_PAGED, f"level_{moved.level + 1}", channel=None, address=None,
                         property_id=page.property_id, interaction_id=None,
                         detail={"page_id": page.id, "level": moved.level + 1, "pass": moved.pass_number + 1,
                                 "people": level, "work_order": page.work_order_display_id})
    return notifications


async def _page_person(spine: Spine, page: Page, step: int, person_id: str, property_name: str) -> list[Notification]:
    # a template: the text and the call below each name their own row
    base = OutboundRequest(key="", kind=NotificationKind.PAGE, recipient_person_id=person_id,
                           property_id=page.property_id, body="", urgent=True, page_id=page.id)
    text = base.model_copy(update={"key": keys.page_step_notice(page.id, step, person_id, "sms"), "channel": Channel.SMS,
                                   "body": texts.page_sms(page, property_name)})
    call = base.model_copy(update={"key": keys.page_step_notice(page.id, step, person_id, "call"), "channel": Channel.VOICE,
                                   "body": texts.page_call_script(page, property_name)})
    return [await queue_outbound(spine, text), await queue_outbound(spine, call)]


async def _exhaust(spine: Spine, page: Page, version: int) -> list[Notification]:
    prop = await spine.get_property(page.property_id)
    name = prop.name if prop else page.property_id
    notifications = []
    for manager_id in await managers_of(spine, page.property_id, page.org_id):
        notifications.append(await queue_outbound(spine, OutboundRequest(
            key=keys.page_exhausted_notice(page.id, manager_id), kind=NotificationKind.STAFF, recipient_person_id=manager_id,
            property_id=page.property_id, body=texts.managers_exhausted(page, name, len(page.paged_person_ids)),
            urgent=True, page_id=page.id)))
        await spine.hold_page(manager_id, page.id)  # a manager may take it with ACK <code>
    managers_told = any(n.status != NotificationStatus.BLOCKED for n in notifications)
    if page.reporter_person_id:
        notifications.append(await queue_outbound(spine, OutboundRequest(
            key=keys.page_reporter_notice(page.id, "exhausted"), kind=NotificationKind.NOTIFY,
            recipient_person_id=page.reporter_person_id, property_id=page.property_id,
            body=texts.reporter_no_answer(page.language, managers_told), urgent=True, page_id=page.id)))
    if not await spine.replace_page(page.model_copy(update={"status": PageStatus.EXHAUSTED}), version, before=page):
        return []
    log.warning("on-call page %s at %s exhausted: nobody acknowledged", page.id, page.property_id)
    await emit_event(spine, EventKind.ONCALL_EXHAUSTED, "no_ack", channel=None, address=None,
                     property_id=page.property_id, interaction_id=None,
                     detail={"page_id": page.id, "paged": page.paged_person_ids,
                             "work_order": page.work_order_display_id})
    return notifications


async def managers_of(spine: Spine, property_id: str, org_id: str | None) -> list[str]:
    """The Persons who manage the property: a pm or org_admin of its org, org-wide or at it."""
    roles = await spine.roles_scoped_to(keys.org_roles(org_id))
    return sorted({r.person_id for r in roles if r.role_type in MANAGER_ROLES
                   and r.scope.property_id in (None, property_id)})


def plan_people(plan: OnCallPlan) -> list[str]:
    return [person_id for level in plan.levels for person_id in level]
