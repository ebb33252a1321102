"""AnthropicBackend through the real SDK against the local Messages API stand-in."""
from __future__ import annotations

import json
import pickle
import time

import pytest

from actors.model.anthropic_backend import AnthropicBackend
from actors.model.base import ModelRequest, ModelUnavailable
from tests.support.anthropic_server import Reply, error, hang, malformed, text, tool_use

EPHEMERAL = {"type": "ephemeral"}


def tool(name: str, **props: dict) -> dict:
    return {"name": name, "description": f"{name} tool",
            "input_schema": {"type": "object", "properties": props}}


def assembled_request(volatile: str = "Fresh contact.", message: str = "my toilet is overflowing!",
                      purpose: str = "turn") -> ModelRequest:
    """Shaped like prompts.assemble: stable blocks, breakpoint on the last stable one, then the
    volatile personContext + L1 breadcrumb block."""
    system = [
        {"type": "text", "text": "You are Clara, a property management assistant. " * 40},
        {"type": "text", "text": "Tenant maintenance: confirm unit and access. " * 30},
        {"type": "text", "text": "Tenant renewal: explain offers plainly. " * 30, "cache_control": EPHEMERAL},
        {"type": "text", "text": "<context>" + volatile + '</context>\n{"roles": ["tenant"]}'},
    ]
    tools = [tool("get_pool_status"), tool("create_work_order", description={"type": "string"}),
             tool("get_troubleshooting_steps", issue={"type": "string"}), tool("escalate_to_human")]
    return ModelRequest(system=system, tools=tools, purpose=purpose,
                        messages=[{"role": "user", "content": message}])


async def test_request_carries_system_tools_and_breakpoint_as_given(anthropic_server, make_backend):
    request = assembled_request()
    await make_backend().complete(request)
    [sent] = anthropic_server.requests
    assert sent.headers["anthropic-version"]
    assert sent.body["model"] == "claude-sonnet-4-6"
    assert sent.body["system"] == request.system
    assert sent.body["tools"] == request.tools
    marked = [i for i, b in enumerate(sent.body["system"]) if "cache_control" in b]
    assert marked == [2] and sent.body["system"][2]["cache_control"] == EPHEMERAL
    assert "<context>" in sent.body["system"][3]["text"] and "cache_control" not in sent.body["system"][3]


async def test_refresh_and_confirm_use_the_fast_model(anthropic_server, make_backend):
    backend = make_backend(fast_model="claude-haiku-4-5")
    for purpose in ("refresh", "confirm"):
        reply = await backend.complete(assembled_request(purpose=purpose))
        assert reply.model == "claude-haiku-4-5"
    assert [r.body["model"] for r in anthropic_server.requests] == ["claude-haiku-4-5"] * 2


async def test_tool_use_response_maps_to_blocks_and_usage(anthropic_server, make_backend):
    anthropic_server.script(tool_use("create_work_order", {"description": "toilet overflowing"},
                                     id="toolu_01", text="Opening a work order."))
    reply = await make_backend().complete(assembled_request())
    assert reply.stop_reason == "tool_use"
    assert reply.content == [
        {"type": "text", "text": "Opening a work order."},
        {"type": "tool_use", "id": "toolu_01", "name": "create_work_order",
         "input": {"description": "toilet overflowing"}},
    ]
    assert reply.tool_uses()[0]["name"] == "create_work_order"
    assert reply.usage.output_tokens > 0 and reply.usage.input_tokens > 0
    assert reply.usage.cache_creation_input_tokens > 0 and reply.usage.cache_read_input_tokens == 0


async def test_tool_result_round_trip_is_accepted(anthropic_server, make_backend):
    backend = make_backend()
    anthropic_server.script(tool_use("get_pool_status", {}, id="toolu_p"), text("The pool is closed."))
    request = assembled_request(message="is the pool open?")
    first = await backend.complete(request)
    follow_up = request.model_copy(update={"messages": request.messages + [
        {"role": "assistant", "content": first.content},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_p", "content": '{"open": false}'}]},
    ]})
    second = await backend.complete(follow_up)
    assert second.text() == "The pool is closed." and second.stop_reason == "end_turn"
    assert [r.status for r in anthropic_server.requests] == [200, 200]


async def test_second_identical_prefix_reads_from_cache(anthropic_server, make_backend):
    backend = make_backend()
    first = await backend.complete(assembled_request(volatile="Summary A", message="hi"))
    second = await backend.complete(assembled_request(volatile="Summary B, longer", message="hello there"))
    assert first.usage.cache_read_input_tokens == 0
    assert second.usage.cache_read_input_tokens == first.usage.cache_creation_input_tokens > 0
    assert second.usage.cache_creation_input_tokens == 0
    # input_tokens is only what follows the breakpoint, so it moves with the volatile part.
    assert second.usage.input_tokens > first.usage.input_tokens
    assert second.usage.input_tokens < second.usage.cache_read_input_tokens


async def test_two_overloads_then_success_is_retried_by_the_sdk(anthropic_server, make_backend):
    anthropic_server.script(error(529), error(529), text("Back online."))
    started = time.monotonic()
    reply = await make_backend(max_retries=2).complete(assembled_request())
    assert reply.text() == "Back online."
    assert [r.status for r in anthropic_server.requests] == [529, 529, 200]
    assert [r.headers["x-stainless-retry-count"] for r in anthropic_server.requests] == ["0", "1", "2"]
    assert time.monotonic() - started < 1.5  # retry-after-ms: 10 honoured, not the 0.5-8 s backoff


async def test_persistent_overload_becomes_model_unavailable(anthropic_server, make_backend):
    anthropic_server.script(*[error(529)] * 3)
    with pytest.raises(ModelUnavailable, match=r"529 overloaded_error: Overloaded \(gave up after at most 2 retries\)"):
        await make_backend(max_retries=2).complete(assembled_request())
    assert len(anthropic_server.requests) == 3


async def test_server_can_forbid_the_retry_with_x_should_retry(anthropic_server, make_backend):
    anthropic_server.script(Reply(status=529, error_type="overloaded_error", message="Overloaded",
                                  headers={"x-should-retry": "false"}))
    with pytest.raises(ModelUnavailable, match="529 overloaded_error"):
        await make_backend(max_retries=2).complete(assembled_request())
    assert len(anthropic_server.requests) == 1


async def test_rate_limit_is_retried_after_the_servers_wait(anthropic_server, make_backend):
    anthropic_server.script(error(429, "rate limited", retry_after_ms=20), text("ok now"))
    assert (await make_backend().complete(assembled_request())).text() == "ok now"
    assert [r.status for r in anthropic_server.requests] == [429, 200]


async def test_bad_request_is_not_retried(anthropic_server, make_backend):
    anthropic_server.script(error(400, "messages: bad", retry_after_ms=None))
    with pytest.raises(ModelUnavailable, match="400 invalid_request_error: messages: bad"):
        await make_backend().complete(assembled_request())
    assert len(anthropic_server.requests) == 1


async def test_wrong_api_key_is_an_authentication_error(anthropic_server):
    backend = AnthropicBackend(api_key="sk-wrong", base_url=anthropic_server.url, timeout_s=2, max_retries=2)
    with pytest.raises(ModelUnavailable, match="401 authentication_error"):
        await backend.complete(assembled_request())
    await backend.aclose()


async def test_hang_beyond_timeout_fails_fast(anthropic_server, make_backend):
    anthropic_server.script(hang(3.0))
    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match=r"timed out after 0\.2s"):
        await make_backend(timeout_s=0.2, max_retries=0).complete(assembled_request())
    assert time.monotonic() - started < 1.0


async def test_deadline_bounds_the_call_including_retries(anthropic_server, make_backend):
    anthropic_server.script(hang(3.0), hang(3.0), hang(3.0))
    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match="deadline"):
        await make_backend(timeout_s=0.3, max_retries=2, deadline_s=0.5).complete(assembled_request())
    assert time.monotonic() - started < 1.0


async def test_malformed_answer_becomes_model_unavailable(anthropic_server, make_backend):
    anthropic_server.script(malformed('{"id": "msg_x", "type": "message"}'))
    with pytest.raises(ModelUnavailable, match="malformed"):
        await make_backend(max_retries=0).complete(assembled_request())


async def test_unreachable_server_becomes_model_unavailable():
    backend = AnthropicBackend(api_key="k", base_url="http://127.0.0.1:9", timeout_s=0.5, max_retries=0)
    with pytest.raises(ModelUnavailable, match="cannot reach"):
        await backend.complete(assembled_request())


async def test_backend_pickles_without_its_client_and_works_after(anthropic_server, make_backend):
    backend = make_backend()
    await backend.complete(assembled_request())
    clone = pickle.loads(pickle.dumps(backend))
    assert (await clone.complete(assembled_request())).text() == "OK."
    await clone.aclose()


def test_missing_key_is_a_clear_error():
    with pytest.raises(ValueError, match="ANTHROPIC_API_KEY"):
        AnthropicBackend(api_key="")


async def test_standin_rejects_unanswered_tool_use(anthropic_server, make_backend):
    request = assembled_request()
    broken = request.model_copy(update={"messages": request.messages + [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "get_pool_status", "input": {}}]},
        {"role": "user", "content": "and?"},
    ]})
    with pytest.raises(ModelUnavailable, match="without tool_result"):
        await make_backend().complete(broken)
    assert json.loads(json.dumps(anthropic_server.requests[0].body))["messages"][1]["role"] == "assistant"


async def test_a_tenants_next_interaction_reads_the_cached_prefix(spine, anthropic_server, make_backend):
    """The whole turn path (router, assembler, catalog, loop) over the real SDK: the second
    interaction's model call reads the prefix the first one wrote, and the trace prices it."""
    from actors.dispatcher.dispatcher import Dispatcher
    from actors.protocol.turn import TurnDeps
    from actors.turn.interaction import run_interaction
    from spine.context import Channel
    from spine.envelope import MessageEnvelope

    deps = TurnDeps(spine=spine, model=make_backend(), tools=Dispatcher(spine))
    traces = []
    for n, body in enumerate(("hello", "one more question about my lease renewal, please")):
        env = MessageEnvelope(message_id=f"SMcache{n:026d}", interaction_id=f"ix_cache_{n}", channel=Channel.SMS,
                              from_address="+12065551001", to_address="+12065550100", body=body,
                              property_id="pf_yale")
        traces.append((await run_interaction(deps, env)).trace)
    first, second = (r.usage for r in anthropic_server.requests)
    assert first["cache_creation_input_tokens"] > 0 and first["cache_read_input_tokens"] == 0
    assert second["cache_read_input_tokens"] == first["cache_creation_input_tokens"]
    assert second["input_tokens"] > first["input_tokens"]  # only the volatile part and the message
    assert traces[1].usage.cache_read_input_tokens == second["cache_read_input_tokens"]
    assert traces[1].model == "claude-sonnet-4-6" and 0 < traces[1].cost_usd < traces[0].cost_usd


async def test_a_client_left_on_another_running_loop_is_closed_there(anthropic_server, make_backend):
    """A backend used from a second event loop gets its own client; the first loop's client is
    closed on that loop, not leaked with its open connections."""
    import asyncio
    import threading

    backend = make_backend()
    other = asyncio.new_event_loop()
    thread = threading.Thread(target=other.run_forever, daemon=True)
    thread.start()
    try:
        asyncio.run_coroutine_threadsafe(backend.complete(assembled_request()), other).result(10)
        first = backend._client
        assert first is not None and not first.is_closed()
        await backend.complete(assembled_request())  # this test's loop: a client of its own
        assert backend._client is not first
        for _ in range(100):
            if first.is_closed():
                break
            await asyncio.sleep(0.02)
        assert first.is_closed()
    finally:
        await backend.aclose()
        other.call_soon_threadsafe(other.stop)
        thread.join(5)
        other.close()
