"""`GET /admin/api/stream`: Server-Sent Events of what changes within the signed-in scope:
`escalation`, `conversation` and `work_order` events, each `data` the record's id as JSON.

Read from the store's change feed (spine.repo.feed), polled every 0.5 s by one poller per process
shared by its streams (gateway.admin.feed_hub), so a change made on any Serve replica reaches a
stream held by any other. Each event's `id` is its feed position: a
dropped stream reconnects with `Last-Event-ID` and reads on from there. Delivery is at least once:
each poll re-reads the last OVERLAP (a change written late by a slow replica is still seen) and a
resumed stream may repeat the few events of that overlap; a page refreshes on an event, so a
repeat costs a refresh, a miss would cost a stale page. A stream resumed from longer ago than
MAX_RESUME gets a `reset` event (reload) instead of a flood.
"""
from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse

import spine.keys as keys
from gateway.admin.auth import require_admin
from gateway.admin.console_scope import ConsoleScope, console_scope
from gateway.admin.feed_hub import OVERLAP, hub_for
from gateway.context import GatewayContext
from spine.feed import Change
from spine.identity import utcnow
from spine.repo import Spine

api = APIRouter()

MAX_RESUME = timedelta(minutes=15)
KEEPALIVE_S = 15.0


def feed_scopes(scope: ConsoleScope) -> list[str]:
    """The feeds the scope reads: whole orgs' and single properties' (as the escalation queues)."""
    return [keys.org_scope(o) for o in sorted(scope.whole_orgs)] + [keys.property_scope(p) for p in sorted(scope.singles)]


def frame(change: Change) -> str:
    data = json.dumps({"id": change.id, "property_id": change.property_id, **change.detail})
    return f"id: {change.position}\nevent: {change.kind}\ndata: {data}\n\n"


def resume_from(last_event_id: str | None) -> datetime | None:
    """When the last event seen was written (its position's time); None: from now."""
    if not last_event_id:
        return None
    try:
        return datetime.fromisoformat(last_event_id.split("#", 1)[0])
    except ValueError:
        return None


def drain(queue: asyncio.Queue[Change | None]) -> list[Change | None]:
    """What else is queued now, without waiting."""
    found: list[Change | None] = []
    while not queue.empty():
        found.append(queue.get_nowait())
    return found


async def changes(spine: Spine, scopes: list[str], last_event_id: str | None) -> AsyncIterator[str]:
    now = utcnow()
    resumed = resume_from(last_event_id)
    yield "retry: 1000\n\n"
    if resumed is not None and resumed < now - MAX_RESUME:
        yield "event: reset\ndata: {}\n\n"
        resumed = None
    hub = hub_for(spine)
    sub = hub.subscribe(scopes)  # before catching up: what is written meanwhile is queued
    sent: dict[str, datetime] = {last_event_id: now} if last_event_id else {}
    # Never before the connection (a new stream has no backlog) or the overlap of the event resumed from.
    floor = resumed - OVERLAP if resumed is not None else now
    try:
        if resumed is not None:
            for missed in await spine.changes_between(scopes, floor, utcnow()):
                sent[missed.position] = missed.at
                yield frame(missed)
        while True:
            try:
                change = await asyncio.wait_for(sub.queue.get(), KEEPALIVE_S)
            except TimeoutError:
                yield ": keepalive\n\n"  # proxies close a silent connection
                continue
            batch = [change, *drain(sub.queue)]  # a tick's changes leave in one write, not one each
            if None in batch:  # fell too far behind: the page reloads
                yield "event: reset\ndata: {}\n\n"
                return
            frames = []
            for got in batch:
                if got is not None and got.at >= floor and got.position not in sent:
                    sent[got.position] = got.at
                    frames.append(frame(got))
            if len(sent) > 10_000:
                sent = {p: at for p, at in sent.items() if at >= utcnow() - 2 * OVERLAP}
            if frames:
                yield "".join(frames)
    finally:
        hub.unsubscribe(sub)


@api.get("/stream", response_class=StreamingResponse,
         responses={200: {"content": {"text/event-stream": {}}, "description": "Server-Sent Events, without end"}})
async def stream(request: Request, ctx: GatewayContext = Depends(require_admin)) -> StreamingResponse:
    scope = await console_scope(ctx, request)
    last = request.headers.get("last-event-id")
    return StreamingResponse(changes(ctx.spine, feed_scopes(scope), last), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
