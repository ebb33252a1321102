"""The Opening: read once, held warm, stale only in the documented ways. Real turns (offline model,
in-process Dispatcher) on a PersonHost, without Ray; the store reads are read from the trace."""
from __future__ import annotations

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.turn.opening import open_for, prompt_for
from prompts.assemble import assemble_prompt
from spine.context import Channel, PersonContext
from spine.identity import Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.repo import Spine
from spine.store.counting import counting
from spine.toolspec import ToolInvocation
from tests.support.actor_helpers import envelope, real_host
from tools.authority import STALE_AFTER_S
from tools.caller import Caller
from tools.catalog import facility_tools, role_tools_for


@pytest.fixture
def counted(spine) -> Spine:
    return Spine(counting(spine.store))


def reads(result, kind: str) -> int:
    return result.trace.store_reads.get(kind, 0)


async def test_a_warm_turn_reads_neither_the_person_nor_the_roles(counted, clock):
    host = real_host(counted, clock)
    cold = await host.submit(envelope("p_marcus", "what are the office hours?"))
    warm = await host.submit(envelope("p_marcus", "and when is the pool open?"))
    assert [c.name for c in cold.trace.tool_calls]  # the turn ran a tool through the dispatcher
    assert (reads(cold, "person"), reads(cold, "roles")) == (1, 1)  # one derivation serves actor and gate
    assert (reads(warm, "person"), reads(warm, "roles"), reads(warm, "context")) == (0, 0, 0)
    assert warm.trace.tool_calls and all(not c.is_error for c in warm.trace.tool_calls)
    clock.advance(STALE_AFTER_S)
    due = await host.submit(envelope("p_marcus", "what are the parking rules?"))
    assert (reads(due, "person"), reads(due, "roles")) == (1, 1)  # re-checked once, for both


async def test_a_role_removed_in_the_store_is_refused_within_the_bound(spine, counted, clock):
    host = real_host(counted, clock)
    first = await host.submit(envelope("p_mike", "I'm 10 min out from WO-7"))
    assert "add_eta_note" in first.trace.tools_offered
    stale = host.persons["person:p_mike"].opening.authority  # the vendor role still in it
    [role] = [r for r in await spine.roles_of("p_mike") if r.role_type == PersonRoleType.VENDOR_CONTACT]
    await spine.put_role(role.model_copy(update={"active": False}))
    clock.advance(STALE_AFTER_S)
    later = await host.submit(envelope("p_mike", "I'm 10 min out from WO-7"))
    assert later.trace.routing.roles == ["other"] and "add_eta_note" not in later.trace.tools_offered
    # Whatever authority a caller object was built from, the dispatcher decides on its own derivation.
    claimed = Caller.of(stale, "ix_claim")
    assert claimed.derived() is stale
    refused = await host.runtime.deps.tools.run(
        ToolInvocation(name="add_eta_note", input={"work_order_id": "WO-7", "eta": "3pm"}, tool_use_id="t1"), claimed)
    assert refused.is_error and refused.decision == "refused"


async def test_a_tool_that_writes_is_seen_by_the_next_turn(spine, clock):
    host = real_host(spine, clock)
    filed = await host.submit(envelope("p_marcus", "my kitchen sink is leaking under the cabinet"))
    [call] = [c for c in filed.trace.tool_calls if c.name == "create_work_order"]
    assert not call.is_error
    opening = host.persons["person:p_marcus"].opening
    assert opening.context_stale and opening.authority_stale
    await host.submit(envelope("p_marcus", "thanks"))
    opening = host.persons["person:p_marcus"].opening
    open_ids = {wo.id for wo in opening.context.active.active_work_orders}
    assert {wo.id for wo in await spine.work_orders_of_unit("pf_yale", "u_yale_204") if wo.is_open} <= open_ids
    assert not opening.context_stale


async def test_openings_of_one_role_set_share_one_prompt_prefix(spine, clock):
    for pid in ("p_twin_a", "p_twin_b"):
        await spine.put_person(Person(id=pid, display_name=pid))
        await spine.put_role(PersonRole(id=f"r_{pid}", person_id=pid, role_type=PersonRoleType.TENANT,
                                        source=PersonRoleSource.PMS_SYNC, scope=RoleScope(unit_id="u_yale_110")))
    tools = Dispatcher(spine, clock=clock)
    a, b = [await open_for(spine, tools, pid, "pf_yale", channel=Channel.SMS, address=None, interaction_id="ix",
                           now=clock()) for pid in ("p_twin_a", "p_twin_b")]
    assert a.facts.unit_numbers == {"u_yale_110": "110"} and a.facts.records_visible
    from spine.router import l1_for_roles

    l1 = l1_for_roles(a.roles)
    prompt_a = await prompt_for(spine, a, a.caller("ix", Channel.SMS), l1, "inbound", a.context, "p_twin_a")
    prompt_b = await prompt_for(spine, b, b.caller("ix", Channel.SMS), l1, "inbound", b.context, "p_twin_b")
    assert a.prefix is b.prefix  # one prefix in the process, not one per actor
    assert prompt_a.stable_prefix == prompt_b.stable_prefix and prompt_a.volatile != prompt_b.volatile
    # The cached prefix plus this turn's volatile block is exactly what a full assembly builds.
    full = assemble_prompt(l1=l1, property=await spine.get_property("pf_yale"), facility_tools=facility_tools(),
                           role_tools=role_tools_for(a.caller("ix", Channel.SMS)), context=a.context,
                           caller_name="p_twin_a")
    assert prompt_a.model_dump() == full.model_dump()


async def test_ghost_pointers_are_filtered_when_the_opening_is_built(spine, clock):
    from spine.context import ActivePointers, ActiveWorkOrder

    ghost = ActiveWorkOrder(id="wo_gone", display_id="WO-999", status="open", brief="deleted since")
    await spine.put_context(PersonContext(person_id="p_marcus", summary="s",
                                          active=ActivePointers(active_work_orders=[ghost])))
    opening = await open_for(spine, Dispatcher(spine, clock=clock), "p_marcus", "pf_yale", channel=Channel.SMS,
                             address=None, interaction_id="ix_g", now=clock())
    assert opening.context.summary == "s" and opening.context.active.active_work_orders == []
