"""`POST /admin/api/tours/{tour_id}`: staff set a tour's outcome (`completed`, `no_show`,
`cancelled`; the `tour_id` schedule_tour's result carries). Scoped as the console is: a tour at a
property outside the scope is 404, a viewer 403; the signed-in person is recorded and an event
`tour/status` left."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel

from desk.console.tours import set_tour_status
from gateway.admin.auth import require_admin, signed_in
from gateway.admin.console_scope import console_scope
from gateway.context import GatewayContext
from spine.events import emit_event
from spine.records import EventKind
from spine.work import TourStatus

api = APIRouter()


class TourStatusIn(BaseModel):
    status: Literal["completed", "no_show", "cancelled"]


class TourView(BaseModel):
    id: str
    property_id: str
    prospect_person_id: str
    unit_id: str | None
    scheduled_at: datetime
    status: TourStatus
    status_by_person_id: str | None
    status_at: datetime | None


@api.post("/tours/{tour_id}")
async def set_status(request: Request, tour_id: str, body: TourStatusIn,
                     ctx: GatewayContext = Depends(require_admin)) -> TourView:
    identity = signed_in(request)
    scope = await console_scope(ctx, request)
    tour = await ctx.spine.get_tour(tour_id)
    if tour is None or tour.property_id not in scope.reads:
        raise HTTPException(404, f"no tour {tour_id!r} in your properties")
    scope.check_act({tour.property_id})
    changed, moved = await set_tour_status(ctx.spine, tour, TourStatus(body.status), by=identity.id)
    if moved:
        await emit_event(ctx.spine, EventKind.TOUR_STATUS, identity.id, channel=None, address=None,
                         property_id=tour.property_id, interaction_id=None,
                         detail={"tour_id": tour.id, "status": changed.status, "before": tour.status,
                                 "by": identity.id})
    return TourView(**changed.model_dump(include=set(TourView.model_fields)))
