"""Each server-tool webhook call is its own tool use (issue 28, finding 8): a second
`send_verification_code` sends a second code, while a true retry of the same request stays
idempotent. In-process through the real routes, the texts through the Twilio REST stand-in."""
from __future__ import annotations

import pytest

from gateway.voice.agent_config import webhook_tool
from spine.toolspec import ToolSpec
from tests.support.voice_helpers import MARCUS, VOICE_TOKEN, YALE_LINE

AUTH = {"Authorization": f"Bearer {VOICE_TOKEN}"}


@pytest.fixture
def services(twilio_services):
    return twilio_services  # this module's calls reach the Twilio stand-in


async def _call(client, sid: str) -> str:
    r = await client.post("/voice/personalization", headers=AUTH, json={
        "caller_id": MARCUS, "agent_id": "agent", "called_number": YALE_LINE, "call_sid": sid})
    assert r.status_code == 200
    return f"voice-{sid}"


async def _send(client, iid: str, **key) -> dict:
    r = await client.post("/voice/tools/send_verification_code", headers=AUTH, json={"interaction_id": iid, **key})
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_second_code_in_a_later_turn_is_sent(client, twilio, spine):
    iid = await _call(client, "CA_twice")
    first, second = await _send(client, iid, agent_turn=3), await _send(client, iid, agent_turn=5)
    assert not first["is_error"] and not second["is_error"]
    assert len(twilio.accepted()) == 2  # "I didn't get it, send it again" sends again
    trace = await spine.get_trace(iid)
    assert [c.name for c in trace.tool_calls] == ["send_verification_code"] * 2
    assert len({c.tool_use_id for c in trace.tool_calls}) == 2


async def test_a_retry_of_the_same_request_sends_nothing_more(client, twilio):
    iid = await _call(client, "CA_retry")
    for key in ({"agent_turn": 3}, {"tool_call_id": "toolu_01Abc"}):
        first, again = await _send(client, iid, **key), await _send(client, iid, **key)
        assert first == again and not first["is_error"]
    assert len(twilio.accepted()) == 2  # one per tool use, none for the retries


async def test_elevenlabs_tool_call_ids_name_each_call(client, twilio):
    iid = await _call(client, "CA_ids")
    answers = [await _send(client, iid, tool_call_id=f"toolu_{n}", agent_turn=4) for n in range(2)]
    assert [a["is_error"] for a in answers] == [False, False] and len(twilio.accepted()) == 2


async def test_without_a_turn_or_id_each_request_is_its_own_call(client, twilio):
    iid = await _call(client, "CA_bare")
    await _send(client, iid)
    await _send(client, iid)
    assert len(twilio.accepted()) == 2


@pytest.mark.parametrize("key", [{"tool_call_id": "x" * 500}, {"tool_call_id": "a b"}, {"agent_turn": "²"},
                                 {"agent_turn": -1}, {"agent_turn": [1]}])
async def test_a_malformed_call_key_is_a_400(client, key):
    iid = await _call(client, "CA_bad_key")
    r = await client.post("/voice/tools/get_pool_status", headers=AUTH, json={"interaction_id": iid, **key})
    assert r.status_code == 400 and "tool webhook" in r.json()["error"]


def test_the_pushed_tool_body_carries_the_agent_turn():
    spec = ToolSpec(name="get_pool_status", description="pool", input_schema={"type": "object", "properties": {}})
    body = webhook_tool(spec, "https://clara.example.test", VOICE_TOKEN)["api_schema"]["request_body_schema"]
    assert body["properties"]["agent_turn"]["dynamic_variable"] == "system__agent_turns"
    assert body["properties"]["interaction_id"]["dynamic_variable"] == "interaction_id"
