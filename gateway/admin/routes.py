"""The /admin surface: the JSON API (agent traces, active PersonActors, observability events)
and, included ahead of it, the pages, sign-in, status, tool catalog and Ask Clara routes.

Every read is bounded by the signed-in identity's scope (desk.console.admin_scope, via
`auth.signed_in_scope`): a staff Person sees the records of the properties their staff roles
reach; the operator sees everything. A record outside the scope is answered as if it did not exist.

Page routes come first: `/admin/traces/view` must not be read as the trace `view`.
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder

import gateway.admin.ask as ask
import gateway.admin.catalog_page as catalog_page
import gateway.admin.conversations as conversations
import gateway.admin.escalations as escalations
import gateway.admin.login as login
import gateway.admin.pages as pages
import gateway.admin.reports as reports
import gateway.admin.status_page as status_page
import gateway.admin.stream as stream
import gateway.admin.tours as tours
import gateway.admin.trace_pages as trace_pages
import gateway.admin.work_order_pages as work_order_pages
import gateway.admin.work_orders as work_orders
from gateway.admin.api_errors import error_responses
from gateway.admin.auth import require_admin, signed_in_scope
from gateway.admin.pages import visible_actors
from gateway.admin.trace_query import FILTER_WINDOW, MAX_WINDOW, find_trace, find_traces
from gateway.context import GatewayContext
from spine.context import Channel
from spine.masking import mask_addresses
from spine.records import EventKind

api = APIRouter()

KNOWN_EVENT_KINDS = sorted(kind.value for kind in EventKind)


@api.get("/traces")
async def list_traces(request: Request, participant_id: str | None = None, channel: Channel | None = None,
                      limit: int = Query(50, ge=1, le=500),
                      ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    traces = await find_traces(ctx.spine, await signed_in_scope(ctx, request), participant_id=participant_id,
                               channel=channel, limit=limit)
    return {"traces": [t.model_dump(mode="json") for t in traces]}


@api.get("/traces/{interaction_id}")
async def get_trace(interaction_id: str, request: Request, ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    trace = await find_trace(ctx.spine, await signed_in_scope(ctx, request), interaction_id)
    if trace is None:
        raise HTTPException(404, f"no trace for interaction {interaction_id!r}")
    return trace.model_dump(mode="json")


@api.get("/actors")
async def list_actors(request: Request, ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    infos = jsonable_encoder(await visible_actors(ctx, await signed_in_scope(ctx, request)))
    # As on the page: an unknown caller's actor is keyed by its address, shown masked.
    return {"hosts": await ctx.pool.host_names(),  # the hosts taking people now: exactly the configured ones
            "actors": [{**i, "key": mask_addresses(str(i.get("key", "")))} for i in infos]}


@api.get("/events")
async def list_events(request: Request, kind: str | None = None, limit: int = Query(100, ge=1, le=1000),
                      ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    scope = await signed_in_scope(ctx, request)
    kinds = [kind] if kind else KNOWN_EVENT_KINDS
    window = limit if scope.everything else min(limit * FILTER_WINDOW, MAX_WINDOW)
    found = [e for k in kinds for e in await ctx.spine.events(k, limit=window) if scope.sees(e.property_id)]
    found.sort(key=lambda e: e.at, reverse=True)
    return {"kinds": kinds, "events": [e.model_dump(mode="json") for e in found[:limit]]}


router = APIRouter()
# The errors each part's JSON routes answer, declared in the OpenAPI schema (pages are not in it).
_READS, _ASKS, _ACTS = error_responses(401, 403, 404), error_responses(400, 401, 403), \
    error_responses(400, 401, 403, 404, 409)
for _part, _errors in ((login.router, _READS), (pages.router, _READS), (catalog_page.router, _ASKS),
                       (status_page.router, _READS), (trace_pages.router, _READS), (ask.router, _ASKS),
                       (escalations.pages, _READS), (conversations.pages, _READS), (work_order_pages.pages, _READS),
                       (reports.pages, _READS), (api, _READS)):
    router.include_router(_part, prefix="/admin", responses=_errors)
for _console in (escalations.api, conversations.api, work_orders.api, tours.api, stream.api, reports.api):
    router.include_router(_console, prefix="/admin/api", responses=_ACTS)
