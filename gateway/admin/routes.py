"""Admin JSON API: agent traces, active PersonActors, observability events."""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException, Query

from gateway.admin.auth import require_admin
from gateway.context import GatewayContext
from gateway.sms.handler import SmsEvent
from spine.context import Channel
from spine.records import AgentTrace, EventKind

router = APIRouter(prefix="/admin")

# Traces are listed newest first from one index; filters apply to a window this much larger
# than `limit`, so a filtered list stays one bounded read.
FILTER_WINDOW = 10
MAX_WINDOW = 1000

KNOWN_EVENT_KINDS = sorted({k.value for k in EventKind} | {v for k, v in vars(SmsEvent).items() if k.isupper()})


def _matches(trace: AgentTrace, participant_id: str | None, channel: Channel | None) -> bool:
    return ((participant_id is None or trace.participant_id == participant_id)
            and (channel is None or trace.channel == channel))


@router.get("/traces")
async def list_traces(participant_id: str | None = None, channel: Channel | None = None,
                      limit: int = Query(50, ge=1, le=500),
                      ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    filtered = participant_id is not None or channel is not None
    window = min(limit * FILTER_WINDOW, MAX_WINDOW) if filtered else limit
    traces = [t for t in await ctx.spine.recent_traces(limit=window) if _matches(t, participant_id, channel)]
    return {"traces": [t.model_dump(mode="json") for t in traces[:limit]]}


@router.get("/traces/{interaction_id}")
async def get_trace(interaction_id: str, ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    trace = await ctx.spine.get_trace(interaction_id)
    if trace is None:
        raise HTTPException(404, f"no trace for interaction {interaction_id!r}")
    return trace.model_dump(mode="json")


@router.get("/actors")
async def list_actors(ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    infos = await ctx.pool.actors()
    return {"actors": [i.model_dump(mode="json") if hasattr(i, "model_dump") else i for i in infos]}


@router.get("/events")
async def list_events(kind: str | None = None, limit: int = Query(100, ge=1, le=1000),
                      ctx: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    kinds = [kind] if kind else KNOWN_EVENT_KINDS
    found = [e for k in kinds for e in await ctx.spine.events(k, limit=limit)]
    found.sort(key=lambda e: e.at, reverse=True)
    return {"kinds": kinds, "events": [e.model_dump(mode="json") for e in found[:limit]]}
