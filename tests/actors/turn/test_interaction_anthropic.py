"""One interaction through the real anthropic SDK against the local Messages API stand-in."""
from __future__ import annotations

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.anthropic_backend import AnthropicBackend
from actors.protocol.turn import TurnDeps
from actors.turn.interaction import FALLBACK_REPLY, run_interaction
from spine.records import TranscriptEntry
from tests.support.anthropic_server import AnthropicStandIn, error, text, tool_use
from tests.support.introduction_helpers import YALE_EN
from tests.support.turn_helpers import envelope
from tools.caller import load_caller
from tools.catalog import catalog_for


@pytest.fixture
def server():
    with AnthropicStandIn(api_key="sk-turn") as s:
        yield s


@pytest.fixture
async def deps(spine, server):
    backend = AnthropicBackend(api_key="sk-turn", base_url=server.url, timeout_s=2.0, max_retries=2)
    yield TurnDeps(spine=spine, model=backend, tools=Dispatcher(spine))
    await backend.aclose()


def _breakpoint_blocks(body: dict) -> list[int]:
    return [i for i, b in enumerate(body["system"]) if b.get("cache_control")]


async def test_request_carries_the_breakpoint_then_the_volatile_context(deps, server, spine):
    server.script(text("Hi Marcus, I'm on it."))
    await run_interaction(deps, envelope("+12065551001", "hello"))
    body = server.bodies()[0]
    marks = _breakpoint_blocks(body)
    assert len(marks) == 1 and marks[0] < len(body["system"]) - 1
    stable = "".join(b["text"] for b in body["system"][: marks[0] + 1])
    volatile = "".join(b["text"] for b in body["system"][marks[0] + 1:])
    assert "This is a fresh contact. No prior context available." in volatile
    assert "Marcus" not in stable and "p_marcus" not in stable
    caller = await load_caller(spine, "p_marcus", "pf_yale", "ix", "sms")
    assert [t["name"] for t in body["tools"]] == [t.name for t in catalog_for(caller)]


async def test_a_tool_not_offered_is_refused_and_its_handler_never_runs(deps, server, spine):
    before = await spine.get_work_order("wo_7")
    server.script(tool_use("update_work_order", {"work_order_id": "WO-7", "status": "completed"}, id="toolu_x"),
                  text("Sorry, I can't do that."))
    result = await run_interaction(deps, envelope("+12065551001", "mark WO-7 done"))
    call = result.trace.tool_calls[0]
    assert call.name == "update_work_order" and call.decision == "refused" and call.is_error
    assert (await spine.get_work_order("wo_7")).status == before.status
    answer = server.bodies()[1]["messages"][-1]["content"][0]
    assert answer["type"] == "tool_result" and answer["tool_use_id"] == "toolu_x" and answer["is_error"] is True


async def test_an_out_of_scope_call_is_refused_before_the_handler(deps, server, spine):
    count = len(await spine.work_orders_at("pf_yale"))
    server.script(tool_use("create_work_order", {"description": "leak", "unit": "110"}), text("I can't file that."))
    result = await run_interaction(deps, envelope("+12065551001", "file a leak for unit 110"))
    assert result.trace.tool_calls[0].decision == "refused"
    assert "own-unit" in result.trace.tool_calls[0].reason
    assert len(await spine.work_orders_at("pf_yale")) == count


async def test_two_overloads_then_success(deps, server):
    server.script(error(529), error(529), text("All good."))
    result = await run_interaction(deps, envelope("+12065551001", "hello"))
    assert result.reply == "All good." + YALE_EN
    assert len(server.requests) == 3


async def test_persistent_overload_gives_the_fallback_and_an_escalation(deps, server, spine):
    server.script(*[error(529) for _ in range(3)])
    result = await run_interaction(deps, envelope("+12065551001", "hello?"))
    assert result.reply == FALLBACK_REPLY + YALE_EN  # Clara's first words to Marcus say who she is
    escalations = [c for c in result.trace.tool_calls if c.name == "escalate_to_human"]
    assert escalations and escalations[0].decision == "allowed"
    assert any(e.kind == "agent/model-failure" for e in result.trace.events)
    assert await spine.escalations_for_org("org_propflow")


async def test_usage_and_cost_are_on_the_trace(deps, server):
    server.script(text("one"), text("two"))
    await run_interaction(deps, envelope("+12065551001", "first"))
    second = await run_interaction(deps, envelope("+12065551001", "second"))
    usage = second.trace.usage
    assert usage.cache_read_input_tokens > 0  # the second interaction reads the first one's cached prefix
    assert second.trace.cost_usd > 0 and second.trace.model


async def test_second_interaction_carries_the_first_summary_in_its_prompt(deps, server, spine):
    from actors.host.context_refresh import refresh_person_context
    server.script(text("I've noted the dripping sink."))
    first = await run_interaction(deps, envelope("+12065551001", "the bathroom sink drips all night"))
    server.script(text("Marcus reported a dripping bathroom sink; Clara noted it."))
    assert await refresh_person_context(spine, deps.model, "p_marcus", first.interaction_id,
                                        [TranscriptEntry(role="user", text=first.trace.inbound),
                                         TranscriptEntry(role="agent", text=first.reply)])
    server.script(text("WO-7 is in progress."))
    await run_interaction(deps, envelope("+12065551001", "what's the status of my work order?"))
    volatile = "".join(b["text"] for b in server.bodies()[-1]["system"] if not b.get("cache_control"))
    assert "Marcus reported a dripping bathroom sink" in volatile
    assert "WO-7" in volatile


async def test_safety_net_escalates_and_nudges_when_the_model_does_neither(deps, server, spine):
    server.script(text("Sure, what can I help with?"))
    result = await run_interaction(deps, envelope("+13105557777", "there's smoke and fire coming from the laundry room"))
    forced = [c for c in result.trace.tool_calls if c.tool_use_id == "safety-net"]
    assert forced and forced[0].name == "escalate_to_human" and forced[0].decision == "allowed"
    assert result.reply.startswith("If anyone is in danger, call 911")
    assert any(e.kind == "agent/safety-net" for e in result.trace.events)
