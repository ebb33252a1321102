"""The admin index and the active-PersonActors page."""
from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from fastapi import APIRouter, Depends, Request, Response

import gateway.admin.html as html
from desk.console.admin_scope import AdminScope
from gateway.admin.auth import AdminPageRoute, require_admin_page, signed_in_scope
from gateway.admin.login import sign_out_form
from gateway.context import GatewayContext
from spine.masking import mask_addresses

log = logging.getLogger("clara.admin")
router = APIRouter(route_class=AdminPageRoute)

SECTIONS = [
    ("/admin/escalations", "Escalations", "hand-offs to staff: open first, acknowledge and resolve"),
    ("/admin/conversations", "Conversations", "every person's messages across channels; take over and hand back"),
    ("/admin/status", "Status", "context-build gaps, graceful-degrade signals, prompt-cache hit rate per role set"),
    ("/admin/tools", "Tool catalog", "every tool with its catalog, scope, flags and allowed roles"),
    ("/admin/traces/view", "Agent traces", "every interaction: routing, prompt anatomy, tool calls, cost"),
    ("/admin/actors/view", "Actors", "active PersonActors and the host that holds each"),
    ("/admin/ask", "Ask Clara", "talk to Clara as yourself, or impersonating a tenant"),
]
JSON_ROUTES = ["/admin/api/escalations", "/admin/api/conversations", "/admin/api/conversations/{person_id}","/admin/api/status", "/admin/api/tools", "/admin/api/ask (POST)", "/admin/traces",
               "/admin/traces/{interaction_id}", "/admin/actors", "/admin/events"]


@router.get("", include_in_schema=False)
async def index(_: GatewayContext = Depends(require_admin_page)) -> Response:
    items = [html.tag("li", html.link(href, title), " — ", text) for href, title, text in SECTIONS]
    return html.page("Clara admin", html.tag("ul", *items),
                     html.tag("h2", "JSON API"), html.tag("p", html.join((html.tag("code", r) for r in JSON_ROUTES), " · ")),
                     sign_out_form())


def _as_dict(info: Any) -> dict[str, Any]:
    return info.model_dump() if hasattr(info, "model_dump") else dict(info)


async def visible_actors(ctx: GatewayContext, scope: AdminScope) -> list[dict[str, Any]]:
    """The active PersonActors whose Person is in scope (an unknown caller's: the operator's alone),
    as dicts (`model_dump()`: datetimes stay datetimes)."""
    infos = [_as_dict(i) for i in await ctx.pool.actors()]
    if scope.everything:
        return infos
    seen = {p: await scope.sees_person(ctx.spine, p) for p in sorted({i.get("person_id") or "" for i in infos}) if p}
    return [i for i in infos if seen.get(i.get("person_id") or "", False)]


@router.get("/actors/view", include_in_schema=False)
async def actors_page(request: Request, ctx: GatewayContext = Depends(require_admin_page)) -> Response:
    try:
        actors = await visible_actors(ctx, await signed_in_scope(ctx, request))
    except Exception as exc:  # noqa: BLE001 - a lost host must not take the page down
        log.error("listing actors failed: %s", exc)
        return html.page("Active PersonActors", html.tag("div", f"Could not list actors: {type(exc).__name__}: {exc}",
                                                         class_="alarm"), status_code=503)
    per_host = Counter(a.get("host") for a in actors)
    # An unknown caller's actor is keyed by its address; the page shows a number's last four digits
    # and an email address's first character and domain.
    rows = [(mask_addresses(str(a.get("key"))),
             html.link("/admin/traces/view?" + html.query(participant_id=a["person_id"]), a["person_id"])
             if a.get("person_id") else "—",
             a.get("host"), html.join(html.pill(r) for r in a.get("roles") or []), a.get("turns"), a.get("queued", 0),
             a.get("activated_at"), a.get("last_active"), a.get("lease_epoch", "")) for a in actors]
    return html.page(
        "Active PersonActors",
        html.tag("p", f"{len(actors)} active on {len(per_host)} host(s) · ", html.link("/admin/actors", "as JSON"),
                 class_="muted"),
        html.table(["host", "active PersonActors"], sorted(per_host.items(), key=lambda kv: str(kv[0])),
                   empty="no host holds an active PersonActor"),
        html.table(["key", "person", "host", "roles", "turns", "queued", "activated", "last active", "lease epoch"],
                   rows, empty="no active PersonActors"),
    )
