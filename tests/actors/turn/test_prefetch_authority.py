"""Prefetch-cache hits are authorised against the caller they go to (issue 13, finding 4): under
one interaction id, Marcus's prefetch of WO-7 is never served to someone the gate refuses WO-7,
and a hit is re-decided (a role ended since the prefetch ends the hit too)."""
from __future__ import annotations

from actors.dispatcher.dispatcher import Dispatcher
from spine.toolspec import ToolInvocation
from tools.authority import STALE_AFTER_S
from tools.caller import load_caller

DETAIL = {"work_order_id": "WO-7"}


def detail(tool_use_id: str) -> ToolInvocation:
    return ToolInvocation(name="get_work_order_detail", input=DETAIL, tool_use_id=tool_use_id)


async def test_a_stranger_is_not_served_marcuss_prefetch(spine):
    dispatcher = Dispatcher(spine)
    marcus = await load_caller(spine, "p_marcus", "pf_yale", "ix_shared")
    stranger = await load_caller(spine, "p_carlos", "pf_yale", "ix_shared")
    await dispatcher.prefetch([ToolInvocation(name="get_work_order_detail", input=DETAIL)], marcus)
    refused = await dispatcher.run(detail("tu_stranger"), stranger)
    assert refused.decision == "refused" and refused.is_error and not refused.prefetched
    assert "toilet" not in refused.content
    served = await dispatcher.run(detail("tu_marcus"), marcus)
    assert not served.is_error and served.prefetched and "toilet" in served.content
    report = await dispatcher.prefetch_report("ix_shared")
    assert [r["status"] for r in report] == ["hit"]


async def test_a_hit_is_decided_again_for_the_caller(spine):
    now = [1_000_000.0]
    dispatcher = Dispatcher(spine, clock=lambda: now[0])
    marcus = await load_caller(spine, "p_marcus", "pf_yale", "ix_moved_out")
    await dispatcher.prefetch([ToolInvocation(name="get_work_order_detail", input=DETAIL)], marcus)
    await dispatcher.run(detail("tu_first"), marcus)  # the prefetch has finished and was a hit
    role = next(r for r in await spine.roles_of("p_marcus") if r.id == "tr_marcus_204")
    await spine.put_role(role.model_copy(update={"active": False}))  # Marcus moved out meanwhile
    now[0] += STALE_AFTER_S  # the dispatcher's own derivation is re-read within this bound (tools.authority)
    again = await dispatcher.run(detail("tu_second"), marcus)
    assert again.is_error and again.decision == "refused" and "toilet" not in again.content


async def test_what_the_dispatcher_holds_is_bounded_by_the_staleness_bound(spine):
    """Turns that never ask for a prefetch report (most do not) leave nothing behind for longer
    than the staleness bound: a soak's DispatcherActor heap grew by every turn's Caller."""
    now = [1_000_000.0]
    dispatcher = Dispatcher(spine, clock=lambda: now[0])
    for n in range(20):
        caller = await load_caller(spine, "p_marcus", "pf_yale", f"ix_turn_{n}")
        await dispatcher.run(ToolInvocation(name="get_property_hours", input={}, tool_use_id=f"tu_{n}"), caller)
    assert dispatcher.held()["callers"] == 20
    now[0] += STALE_AFTER_S  # a later turn, past the bound
    caller = await load_caller(spine, "p_marcus", "pf_yale", "ix_later")
    await dispatcher.run(ToolInvocation(name="get_property_hours", input={}, tool_use_id="tu_later"), caller)
    assert dispatcher.held() == {"authorities": 1, "callers": 1, "prefetched": 0}
