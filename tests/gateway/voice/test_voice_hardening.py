"""No 500 and no crash from any header, and suppressed numbers stay suppressed on every voice path.
In-process through the real routes (no Ray); the bridge against the ElevenLabs stand-in."""
from __future__ import annotations

import json
import time

import pytest

from gateway.twilio.signature import sign as twilio_sign
from gateway.voice.elevenlabs import AgentEndpoint
from spine.records import EventKind
from tests.support.elevenlabs_server import AgentServer, Close, standard_script
from tests.support.twilio_media_client import TwilioMediaClient
from tests.support.voice_helpers import (
    PUBLIC_URL,
    SECRET,
    VOICE_TOKEN,
    YALE_LINE,
    bridge_server,
    start_parameters,
    twilio_sid,
)

AUTH = {"Authorization": f"Bearer {VOICE_TOKEN}"}
SPAM, RUTH, MARCUS = "+18885550199", "+12065551099", "+12065551001"


def _start(caller: str, sid: str) -> dict:
    return {"caller_id": caller, "agent_id": "agent", "called_number": YALE_LINE, "call_sid": sid}


# -- headers -----------------------------------------------------------------------------------
@pytest.mark.parametrize("headers", [
    {"X-Clara-Voice-Token": "tökén".encode("latin-1")},
    {"Authorization": b"Bearer \xe9\xe9\xe9"},
    {"X-Clara-Voice-Token": "x" * 5000},
])
async def test_a_crafted_voice_token_is_a_401(client, headers):
    for path in ("/voice/personalization", "/voice/tools/get_pet_policy"):
        r = await client.post(path, json=_start(MARCUS, "CA_h1"), headers=headers)
        assert r.status_code == 401, path


@pytest.mark.parametrize("header", [b"t=\xb2,v0=" + b"a" * 64, b"t=1\xb2\xb3,v0=abc", b"t=" + b"9" * 40 + b",v0=00",
                                    b"t=1,v0=" + "é".encode("latin-1") * 64, b"t=1," + b"v" * 5000])
async def test_a_crafted_post_call_signature_is_a_401(client, header):
    body = json.dumps({"type": "post_call_transcription", "event_timestamp": int(time.time()), "data": {}}).encode()
    r = await client.post("/voice/post-call", content=body, headers={"ElevenLabs-Signature": header})
    assert r.status_code == 401


@pytest.mark.parametrize("signature", ["é" * 28, "x" * 10_000, ""])
async def test_a_crafted_twilio_signature_is_a_403(client, signature):
    form = {"CallSid": twilio_sid("CA", "h"), "From": MARCUS, "To": YALE_LINE}
    r = await client.post(f"{PUBLIC_URL}/voice/twiml", data=form,
                          headers={"X-Twilio-Signature": signature.encode("latin-1")})
    assert r.status_code == 403


@pytest.mark.parametrize("field, value", [("CallSid", "CA_short"), ("CallSid", "CA" + "z" * 32),
                                          ("ParentCallSid", "PA" + "a" * 32), ("Junk", "x")])
async def test_a_voice_webhook_twilio_never_sends_is_refused(client, field, value):
    form = {"CallSid": twilio_sid("CA", "v"), "From": MARCUS, "To": YALE_LINE, field: value}
    url = f"{PUBLIC_URL}/voice/twiml"
    r = await client.post(url, data=form, headers={"X-Twilio-Signature": twilio_sign(SECRET, url, form)})
    assert r.status_code == 403 and field in r.text


async def test_the_fallback_request_for_a_call_gets_the_same_twiml_as_its_primary(client):
    """Twilio posts a call whose primary failed (Serve's 500 from a dead replica) to the fallback
    URL, /voice/twiml itself, with ErrorCode and ErrorUrl added."""
    url = f"{PUBLIC_URL}/voice/twiml"
    form = {"CallSid": twilio_sid("CA", "fb"), "From": MARCUS, "To": YALE_LINE}
    fallback = {**form, "ErrorCode": "11200", "ErrorUrl": url}
    primary = await client.post(url, data=form, headers={"X-Twilio-Signature": twilio_sign(SECRET, url, form)})
    answer = await client.post(url, data=fallback, headers={"X-Twilio-Signature": twilio_sign(SECRET, url, fallback)})
    assert primary.status_code == answer.status_code == 200 and "<Stream" in answer.text
    assert answer.text == primary.text
    bad = {**fallback, "ErrorCode": "11200Direction"}
    refused = await client.post(url, data=bad, headers={"X-Twilio-Signature": twilio_sign(SECRET, url, bad)})
    assert refused.status_code == 403 and "ErrorCode" in refused.text


async def test_a_call_sid_recut_under_the_same_signature_is_refused(client):
    form = {"CallSid": twilio_sid("CA", "recut"), "From": MARCUS, "To": YALE_LINE}
    url = f"{PUBLIC_URL}/voice/twiml"
    signature = twilio_sign(SECRET, url, form)
    recut = {"CallSid": form["CallSid"] + "From" + MARCUS, "To": YALE_LINE}  # the same signed string
    r = await client.post(url, data=recut, headers={"X-Twilio-Signature": signature})
    assert r.status_code == 403 and "CallSid" in r.text


# -- suppressed numbers ------------------------------------------------------------------------
async def test_a_spam_number_gets_a_person_free_goodbye_on_personalization(client, spine, services):
    r = await client.post("/voice/personalization", json=_start(SPAM, "CA_spam_p"), headers=AUTH)
    assert r.status_code == 200
    body = r.json()
    agent = body["conversation_config_override"]["agent"]
    assert "Goodbye" in agent["first_message"] and "end the call" in agent["prompt"]["prompt"]
    # Not the live agent: a prompt that only ends the call, through ElevenLabs' end_call system tool.
    prompt = agent["prompt"]["prompt"]
    assert len(prompt) < 600 and "end_call" in prompt and services.calls.voice_prompt[:200] not in prompt
    assert not [name for name in ("create_work_order", "escalate_to_human", "send_verification_code") if name in prompt]
    assert body["dynamic_variables"]["caller_known"] is False and body["dynamic_variables"]["person_id"] == "none"
    assert "p_spam" not in r.text
    assert [e.reason for e in await spine.events(EventKind.SPAM_DROPPED)] == ["voice_personalization"]


@pytest.mark.parametrize("caller, sid", [(SPAM, "CA_spam_t"), (RUTH, "CA_ruth_t")])
async def test_a_suppressed_number_runs_no_tool(client, spine, caller, sid):
    await client.post("/voice/personalization", json=_start(caller, sid), headers=AUTH)
    r = await client.post("/voice/tools/get_property_hours", headers=AUTH, json={"interaction_id": f"voice-{sid}"})
    assert r.json() == {"result": "I can't help with that on this line.", "is_error": True}
    assert "voice_tool" in [e.reason for e in await spine.events(EventKind.SPAM_DROPPED)]
    escalated = await client.post("/voice/tools/escalate_to_human", headers=AUTH,
                                  json={"interaction_id": f"voice-{sid}", "reason": "estate of the tenant"})
    assert escalated.json()["is_error"] is False  # staff still hear from an estate-of caller


async def test_a_deceased_persons_number_is_answered_without_naming_anyone(client):
    r = await client.post("/voice/personalization", json=_start(RUTH, "CA_ruth_p"), headers=AUTH)
    assert r.status_code == 200 and "Ruth" not in r.text and "Alvarez" not in r.text and "p_ruth" not in r.text


async def test_the_bridge_puts_no_agent_on_for_a_spam_number(services, spine):
    async with AgentServer(standard_script(Close())) as agent, \
            bridge_server(services.calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid="CA_spam_b") as twilio:
            await twilio.start(start_parameters("CA_spam_b", SPAM))
            assert await bridge.wait_done() == "suppressed"
            await twilio.wait_closed()
    assert all(not c.received for c in agent.conversations)  # no conversation was started
    assert "voice_bridge" in [e.reason for e in await spine.events(EventKind.SPAM_DROPPED)]
