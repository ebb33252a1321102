"""K-1..K-5 and the follow-ups, one interaction at a time, on the offline model (no Ray)."""
from __future__ import annotations

from actors.host.context_refresh import refresh_person_context
from actors.turn.interaction import run_interaction
from spine.records import TranscriptEntry
from tests.support.turn_helpers import envelope


async def test_k1_tenant_maintenance_opens_a_work_order(offline_deps, spine):
    result = await run_interaction(offline_deps, envelope("+12065551001", "my toilet is overflowing!"))
    trace = result.trace
    assert trace.routing.roles == ["tenant"] and trace.routing.confidence == "fact"
    created = [c for c in trace.tool_calls if c.name == "create_work_order"]
    assert created and created[0].decision == "allowed"
    open_units = {wo.unit_id for wo in await spine.work_orders_at("pf_yale") if wo.created_by_person_id == "p_marcus"}
    assert "u_yale_204" in open_units
    assert result.reply and "WO-" in result.reply
    assert "create_work_order" in trace.tools_offered and "accept_dispatch" not in trace.tools_offered
    assert await spine.get_trace(result.interaction_id) is not None


async def test_k2_vendor_eta_lands_on_the_work_order(offline_deps, spine):
    result = await run_interaction(offline_deps, envelope("+13035551500", "I'm 10 min out from WO-7"))
    assert result.trace.routing.roles == ["vendor"]
    assert any(c.name in {"add_eta_note", "update_work_order"} and c.decision == "allowed"
               for c in result.trace.tool_calls)
    wo = await spine.get_work_order("wo_7")
    assert any("10 min" in n.text for n in wo.notes) or (wo.eta and "10 min" in wo.eta)


async def test_k3_unknown_prospect_is_minted_and_sees_units(offline_deps, spine):
    result = await run_interaction(offline_deps, envelope("+14155559876", "do you have 2BR units next month?"))
    trace = result.trace
    assert trace.routing.roles == ["prospect"] and trace.routing.confidence == "inferred"
    assert trace.routing.inferred_intent.kind == "availability"
    assert result.person_id and result.person_id.startswith("p_")
    assert any(c.name == "get_available_units" for c in trace.tool_calls)
    assert "401" in result.reply or "415" in result.reply


async def test_k4_carlos_gets_both_catalogs_and_the_vendor_detail(offline_deps):
    result = await run_interaction(offline_deps, envelope("+13035552020", "check on WO-42"))
    trace = result.trace
    assert sorted(trace.routing.roles) == ["tenant", "vendor"]
    assert {"create_work_order", "update_work_order", "get_dispatch_details"} <= set(trace.tools_offered)
    assert any(c.name == "get_dispatch_details" and c.decision == "allowed" for c in trace.tool_calls)
    assert "WO-42" in result.reply


async def test_k5_wrong_number_gets_a_kind_close_and_no_tools(offline_deps):
    result = await run_interaction(offline_deps, envelope("+13105557777", "yo what's up Trevor"))
    trace = result.trace
    assert trace.routing.roles == ["other"]
    assert trace.routing.other_classification.spine_category == "wrong_number"
    assert "create_work_order" not in trace.tools_offered and "escalate_to_human" in trace.tools_offered
    assert trace.tool_calls == []
    assert "wrong number" in result.reply.lower()


async def test_spam_is_suppressed_with_a_trace(offline_deps, spine):
    result = await run_interaction(offline_deps, envelope("+18885550199", "WIN A FREE CRUISE reply YES"))
    assert result.suppressed and result.reply == ""
    assert (await spine.get_trace(result.interaction_id)).routing.roles == ["other"]


async def test_emergency_on_the_other_lane_still_escalates(offline_deps, spine):
    result = await run_interaction(offline_deps, envelope("+13105557777", "I smell gas in the hallway of your building"))
    assert "911" in result.reply
    assert any(c.name == "escalate_to_human" and c.decision == "allowed" for c in result.trace.tool_calls)


async def test_second_interaction_answers_status_from_context_without_a_tool(offline_deps, spine):
    first = await run_interaction(offline_deps, envelope("+12065551001", "the bathroom sink drips all night"))
    transcript = [TranscriptEntry(role="user", text=first.trace.inbound), TranscriptEntry(role="agent", text=first.reply)]
    assert await refresh_person_context(spine, offline_deps.model, "p_marcus", first.interaction_id, transcript)
    context = await spine.get_context("p_marcus")
    assert context.refreshed_at is not None and context.active.last_interaction_id == first.interaction_id

    second = await run_interaction(offline_deps, envelope("+12065551001", "what's the status of my work order?"))
    assert second.trace.tool_calls == []
    assert "WO-7" in second.reply


async def test_replayed_refresh_writes_once(offline_deps, spine):
    first = await run_interaction(offline_deps, envelope("+12065551002", "the dishwasher is leaking"))
    transcript = [TranscriptEntry(role="user", text="the dishwasher is leaking")]
    assert await refresh_person_context(spine, offline_deps.model, "p_jordan", first.interaction_id, transcript)
    written = (await spine.store.get("PERSON#p_jordan", "CONTEXT")).version
    assert not await refresh_person_context(spine, offline_deps.model, "p_jordan", first.interaction_id, transcript)
    assert (await spine.store.get("PERSON#p_jordan", "CONTEXT")).version == written


async def test_trivial_interaction_is_not_refreshed(offline_deps, spine):
    assert not await refresh_person_context(spine, offline_deps.model, "p_ellen", "ix_trivial",
                                            [TranscriptEntry(role="user", text="thanks!")])
    assert await spine.get_context("p_ellen") is None
