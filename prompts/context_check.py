"""Ghost-pointer defense: personContext.active may point at a work order, tour or renewal that was
deleted since the snapshot was written (a reset script, a merge). The loop calls this before
assembling, so the model never reads a pointer the store can no longer back."""
from __future__ import annotations

from spine.context import Channel, PersonContext
from spine.events import ContextBuildReason, context_build
from spine.repo import Spine
from spine.store.base import StoreError


async def filter_ghost_pointers(spine: Spine, context: PersonContext, *, channel: Channel | str,
                                address: str | None, property_id: str | None, interaction_id: str | None,
                                emit: bool = True) -> PersonContext:
    """A copy of `context` without ghost pointers; one `agent/context-build` event
    (ghost_pointer_filtered) names what was dropped. If the store cannot answer, the pointers are
    kept as they are and the failure is reported instead: a stale pointer beats no context."""
    active = context.active
    try:
        work_orders = [wo for wo in active.active_work_orders if await spine.get_work_order(wo.id) is not None]
        tours = [t for t in active.active_tours if await spine.get_tour(t.id) is not None]
        renewal = active.active_renewal_workflow_id
        if renewal is not None and await spine.get_renewal(renewal) is None:
            renewal = None
    except StoreError as exc:
        if emit:
            await context_build(spine, ContextBuildReason.TENANT_OR_PROSPECT_QUERY_FAILED, channel=channel,
                                address=address, property_id=property_id, interaction_id=interaction_id,
                                detail={"person_id": context.person_id, "error": type(exc).__name__})
        return context
    ghosts = {
        "work_orders": [wo.id for wo in active.active_work_orders if wo not in work_orders],
        "tours": [t.id for t in active.active_tours if t not in tours],
        "renewal_workflow_id": active.active_renewal_workflow_id if renewal != active.active_renewal_workflow_id else None,
    }
    if not any(ghosts.values()):
        return context
    if emit:
        await context_build(spine, ContextBuildReason.GHOST_POINTER_FILTERED, channel=channel, address=address,
                            property_id=property_id, interaction_id=interaction_id,
                            detail={"person_id": context.person_id, **ghosts})
    cleaned = active.model_copy(update={"active_work_orders": work_orders, "active_tours": tours,
                                        "active_renewal_workflow_id": renewal})
    return context.model_copy(update={"active": cleaned})
