"""The staff console's escalation queue: `GET /admin/api/escalations`, acknowledge and resolve, and
the page `/admin/escalations`. Open first, then newest; who is a name and the last 4 digits only.
Every action is the signed-in identity's, within its scope (gateway.admin.console_scope), and
leaves an event."""
from __future__ import annotations

import asyncio
from datetime import datetime

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field

import gateway.admin.html as html
from desk.oncall.ack import acknowledge
from desk.outbound.queue import NotificationStatus
from gateway.admin.auth import AdminPageRoute, require_admin, require_admin_page, signed_in
from gateway.admin.console_scope import ConsoleScope, console_scope
from gateway.admin.console_ui import ACTION_SCRIPT, LIVE_SCRIPT, action_button
from gateway.admin.trace_pages import trace_href
from gateway.context import GatewayContext
from spine.escalation import Escalation, EscalationNote, EscalationStatus
from spine.events import emit_event
from spine.oncall import PageStatus, PageVia
from spine.records import EventKind
from spine.repo import Spine

api = APIRouter()
pages = APIRouter(route_class=AdminPageRoute)

DEFAULT_LIMIT, MAX_LIMIT = 50, 500
NEXT = {"acknowledge": EscalationStatus.ACKNOWLEDGED, "resolve": EscalationStatus.RESOLVED}
EVENTS = {EscalationStatus.ACKNOWLEDGED: EventKind.ESCALATION_ACKNOWLEDGED,
          EscalationStatus.RESOLVED: EventKind.ESCALATION_RESOLVED}


class PageView(BaseModel):
    status: PageStatus = PageStatus.NONE
    level: int | None = None
    acknowledged_by: str | None = None


class EscalationView(BaseModel):
    id: str
    property_id: str
    person_id: str | None
    name: str | None
    wire_address_last4: str | None
    channel: str
    urgency: str
    reason: str
    summary: str
    status: EscalationStatus
    created_at: datetime
    interaction_id: str
    trace_url: str | None
    acknowledged_by: str | None
    resolved_by: str | None
    notes: list[EscalationNote]
    page: PageView


class StaffNote(BaseModel):
    note: str = Field("", max_length=2000)


async def page_view(spine: Spine, escalation: Escalation) -> PageView:
    """The on-call page this escalation started (or joined), as the console shows it: its status,
    the level paged last (from 1) and who acknowledged it; `none` when nothing paged."""
    page = await spine.get_page(escalation.page_id) if escalation.page_id else None
    if page is None:
        return PageView()
    return PageView(status=page.status, level=page.level + 1 if page.step >= 0 else None,
                    acknowledged_by=page.acknowledged_by)


async def view(spine: Spine, e: Escalation) -> EscalationView:
    by = {n.status: n.by for n in e.notes}
    return EscalationView(
        id=e.id, property_id=e.property_id, person_id=e.person_id, name=e.name,
        wire_address_last4=e.wire_address_last4, channel=e.channel, urgency=e.urgency, reason=e.reason,
        summary=e.summary, status=e.status, created_at=e.created_at, interaction_id=e.interaction_id,
        trace_url=f"/admin/traces/{e.interaction_id}" if e.interaction_id else None,
        acknowledged_by=by.get(EscalationStatus.ACKNOWLEDGED), resolved_by=by.get(EscalationStatus.RESOLVED),
        notes=e.notes, page=await page_view(spine, e))


async def views(spine: Spine, found: list[Escalation]) -> list[EscalationView]:
    """The rows, their page states read side by side."""
    return list(await asyncio.gather(*(view(spine, e) for e in found)))


async def queue(spine: Spine, scope: ConsoleScope, property_id: str | None, status: EscalationStatus | None,
                limit: int) -> list[Escalation]:
    """The queues the scope reads: one property's, or the whole orgs' plus the single properties'."""
    if property_id:
        scope.check_read(property_id)
        return await spine.escalation_queue(property_ids=[property_id], status=status, limit=limit)
    return await spine.escalation_queue(property_ids=sorted(scope.singles), org_ids=sorted(scope.whole_orgs),
                                        status=status, limit=limit)


@api.get("/escalations")
async def list_escalations(request: Request, property_id: str | None = None, status: EscalationStatus | None = None,
                           limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT),
                           ctx: GatewayContext = Depends(require_admin)) -> dict[str, list[EscalationView]]:
    scope = await console_scope(ctx, request)
    found = await queue(ctx.spine, scope, property_id, status, limit)
    return {"escalations": await views(ctx.spine, found)}


@api.post("/escalations/{escalation_id}/{action}")
async def act_on_escalation(request: Request, escalation_id: str, action: str, body: StaffNote | None = None,
                            ctx: GatewayContext = Depends(require_admin)) -> EscalationView:
    if action not in NEXT:
        raise HTTPException(404, f"no action {action!r}; known: {', '.join(NEXT)}")
    identity = signed_in(request)
    scope = await console_scope(ctx, request)
    found = await ctx.spine.get_escalation(escalation_id)
    if found is None or found.property_id not in scope.reads:
        raise HTTPException(404, f"no escalation {escalation_id!r} in your properties")
    scope.check_act({found.property_id})
    target, note = NEXT[action], (body or StaffNote()).note.strip()
    if found.status == EscalationStatus.RESOLVED and target == EscalationStatus.ACKNOWLEDGED:
        raise HTTPException(409, "already resolved")

    def change(e: Escalation) -> Escalation | None:
        if e.status == target:
            return None  # a repeated click changes nothing
        return e.model_copy(update={"status": target,
                                    "notes": [*e.notes, EscalationNote(status=target, by=identity.id, note=note)]})

    changed = await ctx.spine.change_escalation(escalation_id, change)
    assert changed is not None
    if changed.status == target and changed.notes and changed.notes[-1].by == identity.id:
        await emit_event(ctx.spine, EVENTS[target], identity.id, channel=None, address=None,
                         property_id=changed.property_id, interaction_id=None,
                         detail={"escalation_id": escalation_id, "by": identity.id, "note": note[:500]})
    if changed.page_id:
        await _stop_page(ctx, changed.page_id, identity.id)
    return await view(ctx.spine, changed)


async def _stop_page(ctx: GatewayContext, page_id: str, staff_id: str) -> None:
    """Acknowledging or resolving an escalation in the console takes its page for the signed-in
    person: the ladder stops (nobody else is paged, no "call 911" to the reporter) and the reporter
    is told who has it, as an ACK by text would. A page already taken is left as it is."""
    taken = await acknowledge(ctx.spine, page_id, staff_id, PageVia.STAFF)
    queued = [n.outbox_id for n in taken.notifications if n.outbox_id and n.status == NotificationStatus.QUEUED]
    if queued:
        ctx.pool.send_soon(queued)  # the reporter hears at once, not at the scheduler's next tick


def _row(v: EscalationView, can_act: bool) -> list[object]:
    who = html.join([v.name or "unknown caller", f" …{v.wire_address_last4}" if v.wire_address_last4 else ""])
    person = html.link(f"/admin/conversations/{html.path_part(v.person_id)}", who) if v.person_id else who
    actions = []
    if can_act and v.status == EscalationStatus.OPEN:
        actions.append(action_button(f"/admin/api/escalations/{html.path_part(v.id)}/acknowledge", "Acknowledge",
                                     note=True))
    if can_act and v.status != EscalationStatus.RESOLVED:
        actions.append(action_button(f"/admin/api/escalations/{html.path_part(v.id)}/resolve", "Resolve", note=True))
    page = f"{v.page.status}" + (f" L{v.page.level}" if v.page.level else "") + (
        f" · ack {v.page.acknowledged_by}" if v.page.acknowledged_by else "")
    status = html.join([html.pill(v.status, "bad" if v.status == EscalationStatus.OPEN else "good"),
                        *(html.tag("div", f"{n.status} by {n.by}" + (f": {n.note}" if n.note else ""),
                                   class_="muted") for n in v.notes)])
    return [status, html.pill(v.urgency, "bad" if v.urgency != "normal" else ""), v.property_id, person, v.channel,
            v.reason, v.summary, page, v.created_at,
            html.link(trace_href(v.interaction_id), "trace") if v.interaction_id else "—", html.join(actions)]


@pages.get("/escalations", include_in_schema=False)
async def escalations_page(request: Request, property_id: str | None = None, status: EscalationStatus | None = None,
                           limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT),
                           ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    scope = await console_scope(ctx, request)
    found = await queue(ctx.spine, scope, property_id, status, limit)
    shown = await views(ctx.spine, found)
    options = [html.tag("option", "any property", value="")] + [
        html.tag("option", p, value=p, selected=p == property_id) for p in sorted(scope.reads)]
    statuses = [html.tag("option", "any status", value="")] + [
        html.tag("option", s.value, value=s.value, selected=s == status) for s in EscalationStatus]
    form = html.tag("form", html.tag("label", "property", html.tag("select", *options, name="property_id")),
                    html.tag("label", "status", html.tag("select", *statuses, name="status")),
                    html.tag("button", "Filter", type="submit"), method="get", class_="inline")
    rows = [_row(v, v.property_id in scope.acts) for v in shown]
    table = html.table(["status", "urgency", "property", "who", "channel", "reason", "summary", "page", "created",
                        "trace", ""], rows, empty="no escalations")
    return html.page("Escalations", form, html.tag("div", table, id="live-escalations", data_live="escalation"),
                     html.tag("p", html.link("/admin/api/escalations", "as JSON"), class_="muted"), ACTION_SCRIPT,
                     LIVE_SCRIPT)
