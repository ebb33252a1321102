"""The staff console's conversations: people with recent interactions, one person's messages
across channels (oldest first, each labelled person, Clara or staff, linked to its trace), and
the staff actions: write (which takes the conversation over), take over, hand back. Reads and
actions are the signed-in identity's, within its scope (gateway.admin.console_scope)."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field, StringConstraints

import gateway.admin.html as html
from desk.console.takeover import hand_back, send_staff_message, take_over
from desk.outbound.queue import Notification, NotificationStatus
from gateway.admin.auth import AdminPageRoute, require_admin, require_admin_page, signed_in
from gateway.admin.call_views import CallView, calls_of, calls_table
from gateway.admin.console_scope import ConsoleScope, console_scope, conversation_in_scope
from gateway.admin.console_ui import ACTION_SCRIPT, LIVE_SCRIPT, action_button
from gateway.admin.trace_pages import trace_href
from gateway.context import GatewayContext
from spine.context import Channel
from spine.conversation import Author, Conversation, Mode

api = APIRouter()
pages = APIRouter(route_class=AdminPageRoute)

DEFAULT_LIMIT, MAX_LIMIT = 50, 500
MESSAGES_SHOWN = 500
IDEMPOTENCY_KEY = re.compile(r"[A-Za-z0-9_-]{1,100}")


class ConversationRow(BaseModel):
    person_id: str
    name: str | None
    property_id: str | None
    roles: list[str]
    last_channel: Channel | None
    last_at: datetime
    mode: Mode
    staff_person_id: str | None
    unread: int


class MessageView(BaseModel):
    at: datetime
    channel: Channel
    author: Author
    staff_person_id: str | None
    text: str
    unread: bool
    interaction_id: str | None
    trace_url: str | None


class ConversationView(ConversationRow):
    messages: list[MessageView]
    calls: list[CallView] = Field(default_factory=list)  # the phone calls among them: summary, transfers


class StaffText(BaseModel):
    text: Annotated[str, StringConstraints(strip_whitespace=True)] = Field(min_length=1, max_length=1600)
    urgent: bool = False  # send now, outside the contact window too; routine messages wait for it


class StaffActionResult(BaseModel):
    person_id: str
    property_id: str | None
    mode: Mode
    staff_person_id: str | None
    notification: Notification | None = None


def row(head: Conversation) -> ConversationRow:
    return ConversationRow(person_id=head.person_id, name=head.name, property_id=head.property_id, roles=head.roles,
                           last_channel=head.last_channel, last_at=head.last_at, mode=head.mode(),
                           staff_person_id=head.staff_person_id(), unread=head.unread)


async def recent(ctx: GatewayContext, scope: ConsoleScope, property_id: str | None, limit: int) -> list[Conversation]:
    if property_id:
        scope.check_read(property_id)
    return await ctx.spine.recent_conversations([property_id] if property_id else sorted(scope.reads), limit=limit)


async def conversation(ctx: GatewayContext, scope: ConsoleScope, person_id: str,
                       property_id: str | None) -> ConversationView:
    head = await conversation_in_scope(ctx.spine, scope, person_id, property_id)
    messages = [MessageView(at=m.at, channel=m.channel, author=m.author, staff_person_id=m.staff_person_id,
                            text=m.text, unread=m.unread, interaction_id=m.interaction_id,
                            trace_url=f"/admin/traces/{m.interaction_id}" if m.interaction_id else None)
                for m in await ctx.spine.messages_of(person_id, head.property_id, limit=MESSAGES_SHOWN)]
    calls = await calls_of(ctx.spine, [m.interaction_id for m in messages if m.channel == Channel.VOICE])
    return ConversationView(**row(head).model_dump(), messages=messages, calls=calls)


async def _acting(request: Request, ctx: GatewayContext, person_id: str, property_id: str | None) -> tuple[str, str]:
    """The signed-in staff id, and the property of the conversation they act on (403/404 otherwise)."""
    scope = await console_scope(ctx, request)
    head = await conversation_in_scope(ctx.spine, scope, person_id, property_id, acting=True)
    return signed_in(request).id, head.property_id


def _result(head: Conversation | None, person_id: str, notification: Notification | None = None) -> StaffActionResult:
    return StaffActionResult(person_id=person_id, property_id=head.property_id if head else None,
                             mode=head.mode() if head else Mode.CLARA,
                             staff_person_id=head.staff_person_id() if head else None, notification=notification)


@api.get("/conversations")
async def list_conversations(request: Request, property_id: str | None = None,
                             limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT),
                             ctx: GatewayContext = Depends(require_admin)) -> dict[str, list[ConversationRow]]:
    scope = await console_scope(ctx, request)
    return {"conversations": [row(h) for h in await recent(ctx, scope, property_id, limit)]}


@api.get("/conversations/{person_id}")
async def get_conversation(request: Request, person_id: str, property_id: str | None = None,
                           ctx: GatewayContext = Depends(require_admin)) -> ConversationView:
    return await conversation(ctx, await console_scope(ctx, request), person_id, property_id)


@api.post("/conversations/{person_id}/messages")
async def staff_message(request: Request, person_id: str, body: StaffText, property_id: str | None = None,
                        ctx: GatewayContext = Depends(require_admin)) -> StaffActionResult:
    key = request.headers.get("idempotency-key")
    if key is not None and not IDEMPOTENCY_KEY.fullmatch(key):
        raise HTTPException(400, "Idempotency-Key: 1 to 100 letters, digits, '-' or '_'")
    staff_id, where = await _acting(request, ctx, person_id, property_id)
    sent = await send_staff_message(ctx.spine, person_id, where, staff_id, body.text, request_id=key,
                                    urgent=body.urgent, release_after_s=ctx.takeover.idle_release_s)
    if sent.notification.outbox_id and sent.notification.status == NotificationStatus.QUEUED:
        ctx.pool.send_soon([sent.notification.outbox_id])  # at once, not at the scheduler's next tick
    return _result(await ctx.spine.get_conversation(person_id, where), person_id, sent.notification)


@api.post("/conversations/{person_id}/takeover")
async def takeover(request: Request, person_id: str, property_id: str | None = None,
                   ctx: GatewayContext = Depends(require_admin)) -> StaffActionResult:
    staff_id, where = await _acting(request, ctx, person_id, property_id)
    head = await take_over(ctx.spine, person_id, where, staff_id, release_after_s=ctx.takeover.idle_release_s)
    return _result(head, person_id)


@api.post("/conversations/{person_id}/handback")
async def handback(request: Request, person_id: str, property_id: str | None = None,
                   ctx: GatewayContext = Depends(require_admin)) -> StaffActionResult:
    staff_id, where = await _acting(request, ctx, person_id, property_id)
    return _result(await hand_back(ctx.spine, person_id, where, staff_id)
                   or await ctx.spine.get_conversation(person_id, where), person_id)


def _mode(mode: Mode, staff: str | None) -> html.Safe:
    return html.pill(f"staff: {staff}", "bad") if mode == Mode.STAFF else html.pill("Clara", "good")


@pages.get("/conversations", include_in_schema=False)
async def conversations_page(request: Request, property_id: str | None = None,
                             limit: int = Query(DEFAULT_LIMIT, ge=1, le=MAX_LIMIT),
                             ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    scope = await console_scope(ctx, request)
    rows = [(html.link(f"/admin/conversations/{html.path_part(r.person_id)}?{html.query(property_id=r.property_id)}",
                       r.name or r.person_id), r.property_id,
             html.join(html.pill(x) for x in r.roles), r.last_channel, r.last_at, _mode(r.mode, r.staff_person_id),
             html.pill(f"{r.unread} unread", "bad") if r.unread else "")
            for r in (row(h) for h in await recent(ctx, scope, property_id, limit))]
    table = html.table(["person", "property", "roles", "last channel", "last message", "answering", ""], rows,
                       empty="no conversations")
    return html.page("Conversations", html.tag("div", table, id="live-conversations", data_live="conversation"),
                     html.tag("p", html.link("/admin/api/conversations", "as JSON"), class_="muted"), LIVE_SCRIPT)


@pages.get("/conversations/{person_id}", include_in_schema=False)
async def conversation_page(request: Request, person_id: str, property_id: str | None = None,
                            ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    scope = await console_scope(ctx, request)
    v = await conversation(ctx, scope, person_id, property_id)
    rows = [(m.at, m.channel, html.pill(f"staff {m.staff_person_id}" if m.author == Author.STAFF else m.author,
                                        "bad" if m.unread else ""),
             html.tag("div", m.text, class_="message"),
             html.link(trace_href(m.interaction_id), "trace") if m.interaction_id else "") for m in v.messages]
    base = f"/admin/api/conversations/{html.path_part(person_id)}"
    at = f"?{html.query(property_id=v.property_id)}" if v.property_id else ""
    controls = [action_button(base + "/messages" + at, "Send", text_field="text"),
                action_button(base + "/handback" + at, "Hand back to Clara") if v.mode == Mode.STAFF
                else action_button(base + "/takeover" + at, "Take over")] if v.property_id in scope.acts else [
        html.tag("p", "You can read this conversation but not write to it.", class_="muted")]
    live = html.tag("div", html.tag("p", v.property_id or "", " · ", html.join(html.pill(r) for r in v.roles),
                                    " · answering: ", _mode(v.mode, v.staff_person_id), id="mode"),
                    html.table(["at", "channel", "author", "message", "trace"], rows, empty="no messages yet"),
                    *([html.tag("h2", "Calls"), calls_table(v.calls)] if v.calls else []),
                    id="live-conversation", data_live="conversation", data_live_id=person_id)
    return html.page(f"Conversation with {v.name or person_id}", live,
                     *controls, html.tag("p", html.link(base + at, "as JSON"), class_="muted"), ACTION_SCRIPT,
                     LIVE_SCRIPT)
