"""Every model fault ends like a 529 does (issue 13, finding 10): the fallback reply, an escalation
to a human, and a trace with the error. Driven through the real SDK against the stand-in."""
from __future__ import annotations

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.anthropic_backend import AnthropicBackend
from actors.protocol.turn import TurnDeps
from actors.turn.interaction import FALLBACK_REPLY, run_interaction
from tests.support.anthropic_server import AnthropicStandIn, Reply, error, malformed
from tests.support.introduction_helpers import YALE_EN
from tests.support.turn_helpers import envelope

FAULTS = {
    "overloaded": [error(529) for _ in range(3)],
    "malformed json": [malformed("{not json")],
    "not a message": [malformed('{"id": "msg_x", "type": "message"}')],
    "tool_use without id": [Reply(content=[{"type": "tool_use", "name": "get_balance", "input": {}}])],
    "tool_use with empty id": [Reply(content=[{"type": "tool_use", "id": "", "name": "get_balance", "input": {}}])],
    "tool_use without name": [Reply(content=[{"type": "tool_use", "id": "toolu_1", "input": {}}])],
}


@pytest.fixture
def server():
    with AnthropicStandIn(api_key="sk-fault") as s:
        yield s


@pytest.fixture
async def deps(spine, server):
    backend = AnthropicBackend(api_key="sk-fault", base_url=server.url, timeout_s=2.0, max_retries=2)
    yield TurnDeps(spine=spine, model=backend, tools=Dispatcher(spine))
    await backend.aclose()


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_a_model_fault_gets_the_fallback_an_escalation_and_a_trace(deps, server, spine, fault):
    server.script(*FAULTS[fault])
    env = envelope("+12065551001", "is my rent paid up?")
    result = await run_interaction(deps, env)
    assert result.reply == FALLBACK_REPLY + YALE_EN  # Clara's first words to Marcus say who she is
    escalations = [c for c in result.trace.tool_calls if c.name == "escalate_to_human"]
    assert escalations and escalations[0].decision == "allowed", result.trace.tool_calls
    failures = [e for e in result.trace.events if e.kind == "agent/model-failure"]
    assert failures and failures[0].reason
    assert await spine.get_trace(env.interaction_id) is not None
    assert await spine.escalations_for_org("org_propflow")
