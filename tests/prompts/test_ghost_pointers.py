"""filter_ghost_pointers: active.* pointers the store cannot back are dropped, loudly."""
from __future__ import annotations

from datetime import UTC, datetime

from prompts.context_check import filter_ghost_pointers
from spine import keys
from spine.context import ActivePointers, ActiveTour, ActiveWorkOrder, PersonContext
from spine.records import EventKind
from spine.work import Tour

COMMON = dict(channel="sms", address="+12065551001", property_id="pf_yale", interaction_id="gp-1")


def context(*work_orders: str, tours: tuple[str, ...] = (), renewal: str | None = None) -> PersonContext:
    return PersonContext(person_id="p_marcus", active=ActivePointers(
        active_work_orders=[ActiveWorkOrder(id=w, display_id=w.upper(), status="open", brief="b") for w in work_orders],
        active_tours=[ActiveTour(id=t, status="scheduled", scheduled_at="2026-12-01T15:00:00+00:00") for t in tours],
        active_renewal_workflow_id=renewal))


async def test_ghosts_are_filtered_and_reported_once(spine):
    await spine.put_tour(Tour(id="t_real", prospect_person_id="p_marcus", property_id="pf_yale",
                              scheduled_at=datetime(2026, 12, 1, 15, tzinfo=UTC)))
    ctx = context("wo_7", "wo_gone", tours=("t_real", "t_gone"), renewal="rw_gone")
    clean = await filter_ghost_pointers(spine, ctx, **COMMON)
    assert [w.id for w in clean.active.active_work_orders] == ["wo_7"]
    assert [t.id for t in clean.active.active_tours] == ["t_real"]
    assert clean.active.active_renewal_workflow_id is None
    assert len(ctx.active.active_work_orders) == 2  # the input is not mutated
    [event] = await spine.events(EventKind.CONTEXT_BUILD)
    assert (event.reason, event.phone_last4) == ("ghost_pointer_filtered", "1001")
    assert event.detail == {"person_id": "p_marcus", "work_orders": ["wo_gone"], "tours": ["t_gone"],
                            "renewal_workflow_id": "rw_gone"}


async def test_a_deleted_work_order_becomes_a_ghost(spine):
    ctx = context("wo_7", renewal="rw_yale_204_2027")
    assert await filter_ghost_pointers(spine, ctx, **COMMON) == ctx
    assert await spine.events(EventKind.CONTEXT_BUILD) == []
    await spine.store.delete(keys.work_order("wo_7"))  # behind the product's back: nothing deletes one
    clean = await filter_ghost_pointers(spine, ctx, **COMMON)
    assert clean.active.active_work_orders == [] and clean.active.active_renewal_workflow_id == "rw_yale_204_2027"


async def test_without_emit_nothing_is_recorded(spine):
    clean = await filter_ghost_pointers(spine, context("wo_gone"), emit=False, **COMMON)
    assert clean.active.active_work_orders == []
    assert await spine.events(EventKind.CONTEXT_BUILD) == []
