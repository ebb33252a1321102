"""The Messages API stand-in itself: auth and version headers, request validation, cache TTL."""
from __future__ import annotations

import httpx
import pytest

from tests.support.anthropic_server import AnthropicStandIn, Reply, tokens

HEADERS = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
STABLE = [{"type": "text", "text": "stable " * 100, "cache_control": {"type": "ephemeral"}}]


def body(**extra) -> dict:
    return {"model": "claude-sonnet-4-6", "max_tokens": 64, "system": STABLE,
            "messages": [{"role": "user", "content": "hi"}], **extra}


class Clock:
    now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def server(clock):
    with AnthropicStandIn(api_key="k", clock=clock) as s:
        yield s


def post(server, payload, headers=HEADERS) -> httpx.Response:
    return httpx.post(f"{server.url}/v1/messages", json=payload, headers=headers, timeout=5)


def test_x_api_key_and_version_are_checked(server):
    assert post(server, body(), {"anthropic-version": "2023-06-01", "x-api-key": "nope"}).status_code == 401
    missing = post(server, body(), {"x-api-key": "k"})
    assert missing.status_code == 400
    assert missing.json() == {"type": "error", "error": {"type": "invalid_request_error",
                              "message": "anthropic-version: header is required"}, "request_id": "req_standin_400"}
    assert post(server, body()).status_code == 200


@pytest.mark.parametrize("payload, problem", [
    ({"max_tokens": 5, "messages": [{"role": "user", "content": "x"}]}, "model"),
    (body(max_tokens=0), "max_tokens"),
    (body(messages=[]), "messages"),
    (body(messages=[{"role": "system", "content": "x"}]), "role"),
    (body(tools=[{"name": "a", "input_schema": {"type": "object"}}] * 2), "unique"),
    (body(system=[{"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}] * 5), "maximum of 4"),
    (body(messages=[{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "x"}]}],
          tools=[{"name": "a", "input_schema": {"type": "object"}}]), "unexpected tool_use_id"),
])
def test_invalid_requests_get_the_api_error_shape(server, payload, problem):
    response = post(server, payload)
    assert response.status_code == 400
    assert response.json()["error"]["type"] == "invalid_request_error"
    assert problem in response.json()["error"]["message"]


def test_cache_entry_lives_five_minutes_and_refreshes_on_hit(server, clock):
    prefix = tokens(STABLE[0])
    assert post(server, body()).json()["usage"]["cache_creation_input_tokens"] == prefix
    clock.now += 299
    assert post(server, body()).json()["usage"]["cache_read_input_tokens"] == prefix
    clock.now += 299  # 598 s after the write, 299 s after the refreshing hit
    assert post(server, body()).json()["usage"]["cache_read_input_tokens"] == prefix
    clock.now += 301
    usage = post(server, body()).json()["usage"]
    assert usage["cache_read_input_tokens"] == 0 and usage["cache_creation_input_tokens"] == prefix


def test_cache_is_per_model_and_prefix_bytes(server):
    post(server, body())
    other_model = post(server, body(model="claude-haiku-4-5")).json()["usage"]
    changed = [{**STABLE[0], "text": STABLE[0]["text"] + "!"}]
    other_prefix = post(server, body(system=changed)).json()["usage"]
    assert other_model["cache_read_input_tokens"] == 0 and other_prefix["cache_read_input_tokens"] == 0


def test_default_reply_when_nothing_is_scripted(server):
    answer = post(server, body()).json()
    assert answer["content"] == [{"type": "text", "text": "OK."}] and answer["stop_reason"] == "end_turn"
    assert answer["usage"]["input_tokens"] == tokens({"role": "user", "type": "text", "text": "hi"})
    assert len(server.requests) == 1 and server.requests[0].usage == answer["usage"]


def test_latency_delays_every_answer_by_at_least_that_long():
    """A floor, never a ceiling: the bench's model time to first token (bench/prefetch.py)."""
    with AnthropicStandIn(api_key="k", latency_s=0.2) as slow:
        took = [post(slow, body()).elapsed.total_seconds() for _ in range(2)]
    assert min(took) >= 0.2


def test_generation_adds_token_s_per_output_token():
    """The answer comes when its last token would have: latency_s, then token_s per output token
    (a floor, like latency_s: a busy machine only adds)."""
    with AnthropicStandIn(api_key="k", token_s=0.01) as slow:
        slow.script(Reply(content=[{"type": "text", "text": "x"}], output_tokens=30))
        took = post(slow, body()).elapsed.total_seconds()
    assert took >= 0.3
