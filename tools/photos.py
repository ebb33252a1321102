"""Photos that answer a photo request: a tenant's MMS attached to the work order that asked.

`request_photo` marks a work order as waiting for a photo. When the next message from an
occupant of that work order's unit carries media, the turn attaches it there before Clara
answers, so the technician sees it in `get_work_order_detail`. Only open work orders on the
caller's own units at this property are candidates (the scope `request_photo` itself has), and
only those still waiting; media with nothing waiting for it stays in the conversation alone.
"""
from __future__ import annotations

from spine.repo import Spine
from spine.work import WorkOrder
from tools.caller import Caller


async def waiting_for_photos(spine: Spine, caller: Caller) -> list[WorkOrder]:
    """Open work orders on the caller's own units here that asked for a photo, latest first.
    The units are the gate's own (CallerFacts), so this is the scope request_photo is held to."""
    facts = await caller.facts(spine)
    waiting = [wo for unit_id in sorted(facts.units)
               for wo in await spine.work_orders_of_unit(caller.property_id, unit_id)
               if wo.is_open and wo.photo_request]
    return sorted(waiting, key=lambda wo: wo.updated_at, reverse=True)


async def attach_requested_photos(spine: Spine, caller: Caller, media_urls: list[str]) -> WorkOrder | None:
    """Attach `media_urls` to the latest work order waiting for them; the work order, or None."""
    if not media_urls:
        return None
    waiting = await waiting_for_photos(spine, caller)
    if not waiting:
        return None
    wo = await spine.get_work_order(waiting[0].id) or waiting[0]  # read for its own write: only what changes here is written
    new = [url for url in media_urls if url not in wo.photo_urls]
    wo.photo_urls += new
    note = f"{len(new)} photo(s) received by MMS for: {wo.photo_request}"
    wo.photo_request = None
    await spine.note_work_order(wo, caller.person_id, note, updated_at=spine.clock())
    return wo
