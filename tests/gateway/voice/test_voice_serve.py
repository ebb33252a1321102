"""The voice gateway in a real (private) Ray: Serve over real HTTP and a real websocket on a free
port, tools through the DispatcherActor, against the Twilio media-stream and ElevenLabs stand-ins
(the session's shared gateway application)."""
from __future__ import annotations

import asyncio
import time
from xml.etree import ElementTree

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from gateway.twilio.signature import sign
from spine.records import TranscriptEntry
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.elevenlabs_server import (
    AgentServer,
    Close,
    Expect,
    Send,
    agent_response,
    audio,
    standard_script,
    tool_call,
    user_transcript,
)
from tests.support.serve_helpers import SHARED_ACCOUNT_SID, SHARED_AUTH_TOKEN, SHARED_VOICE_TOKEN
from tests.support.twilio_media_client import TwilioMediaClient, frame

pytestmark = pytest.mark.ray

AUTH_TOKEN, VOICE_TOKEN = SHARED_AUTH_TOKEN, SHARED_VOICE_TOKEN
MARCUS, YALE = "+12065551001", "+12065550100"
CALL_SID = "CA" + "a1" * 16
SCRIPT = standard_script(
    Expect("user_audio_chunk", 2),
    Send(user_transcript("Is someone still coming for my toilet?")),
    Send(tool_call("get_work_order_detail", {"work_order_id": "WO-7"}, "tc_ray_1")),
    Expect("client_tool_result"),
    Send(audio(frame(42), 1)),
    Send(agent_response("Yes, Mike is on WO-7 today.")),
    Expect("user_audio_chunk", 3),
    Close(),
)


@pytest.fixture
def agent(serve_gateway) -> AgentServer:
    serve_gateway.agent.script = SCRIPT
    return serve_gateway.agent


@pytest.fixture
def base_url(serve_gateway) -> str:
    return serve_gateway.url


@pytest.fixture
def store_path(serve_gateway):
    return serve_gateway.store_path


async def _until(predicate, timeout: float = 15.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if value := await predicate():
            return value
        await asyncio.sleep(0.1)
    raise AssertionError("condition not met in time")


async def test_a_bridged_call_over_serve(base_url, agent, store_path):
    # A-level STIR/SHAKEN: the call is verified, so the work order's detail may be read on it.
    form = {"CallSid": CALL_SID, "From": MARCUS, "To": YALE, "AccountSid": SHARED_ACCOUNT_SID,
            "StirVerstat": "TN-Validation-Passed-A"}
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        twiml = await http.post("/voice/twiml", data=form,
                                headers={"X-Twilio-Signature": sign(AUTH_TOKEN, f"{base_url}/voice/twiml", form)})
    assert twiml.status_code == 200
    stream = ElementTree.fromstring(twiml.text).find("Connect/Stream")
    params = {p.get("name"): p.get("value") for p in stream.findall("Parameter")}
    ws_url = stream.get("url")
    assert ws_url == base_url.replace("http", "ws") + "/voice/twilio/stream"

    # Twilio signs the websocket upgrade over the stream URL; an unsigned one never reaches the bridge.
    with pytest.raises((InvalidHandshake, ConnectionClosed)):
        async with TwilioMediaClient(ws_url, call_sid=CALL_SID):
            pass
    signed = {"X-Twilio-Signature": sign(AUTH_TOKEN, ws_url, {})}
    calls_before = len(agent.conversations)
    async with TwilioMediaClient(ws_url, call_sid=CALL_SID, headers=signed) as twilio:
        await twilio.start(params)
        convo = await agent.wait_conversation(calls_before)
        await twilio.media(frame(1))
        await twilio.media(frame(2))
        await twilio.wait_for("media", 1)
        await twilio.media(frame(3))
        await twilio.wait_closed()

    assert convo.received[0]["dynamic_variables"]["person_id"] == "p_marcus"
    assert [m["user_audio_chunk"] for m in convo.of("user_audio_chunk")] == [frame(1), frame(2), frame(3)]
    result = convo.of("client_tool_result")[0]
    assert result["is_error"] is False and "WO-7" in result["result"]
    assert twilio.payloads() == [frame(42)]

    spine = Spine(SqliteStore(store_path))
    try:
        context = await _until(lambda: _refreshed(spine))
        trace = await spine.get_trace(f"voice-{CALL_SID}")
    finally:
        await spine.store.close()
    assert [c.name for c in trace.tool_calls] == ["get_work_order_detail"]
    assert trace.transcript[0] == TranscriptEntry(role="user", text="Is someone still coming for my toilet?")
    assert context.active.last_channel == "voice"


async def _refreshed(spine: Spine):
    context = await spine.get_context("p_marcus")
    return context if context and context.active.last_interaction_id == f"voice-{CALL_SID}" else None


async def test_personalization_and_a_server_tool_over_serve(base_url):
    auth = {"Authorization": f"Bearer {VOICE_TOKEN}"}
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        start = await http.post("/voice/personalization", headers=auth, json={
            "caller_id": MARCUS, "agent_id": "agent", "called_number": YALE, "call_sid": "CA_ray_2"})
        assert start.status_code == 200 and "[CONTEXT]" in start.text
        tool = await http.post("/voice/tools/get_unit_appliances", headers=auth, json={"call_sid": "CA_ray_2"})
    assert tool.status_code == 200 and tool.json()["is_error"] is False and "Kohler" in tool.json()["result"]


async def test_an_unknown_callers_call_opens_on_their_numbers_address_actor_over_serve(base_url):
    from tests.support.serve_helpers import SHARED_ADMIN_TOKEN

    auth, stranger = {"Authorization": f"Bearer {VOICE_TOKEN}"}, "+13105554242"
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        start = await http.post("/voice/personalization", headers=auth, json={
            "caller_id": stranger, "agent_id": "agent", "called_number": YALE, "call_sid": "CA_ray_addr"})
        assert start.status_code == 200 and start.json()["dynamic_variables"]["caller_known"] is False
        tool = await http.post("/voice/tools/get_property_hours", headers=auth, json={"call_sid": "CA_ray_addr"})
        listed = await http.get("/admin/actors", headers={"Authorization": f"Bearer {SHARED_ADMIN_TOKEN}"})
    assert tool.status_code == 200 and tool.json()["is_error"] is False, tool.json()
    assert listed.status_code == 200, listed.text
    keys = [a["key"] for a in listed.json()["actors"] if a["person_id"] is None]
    assert "addr:voice:…4242" in keys, listed.json()  # masked, as the admin API shows an address
