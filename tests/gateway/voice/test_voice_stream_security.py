"""Only Twilio opens media streams, and a stream is bound to the signed call that created it.
The bridge against the ElevenLabs stand-in without Ray; the websocket upgrade through the real
route on a real uvicorn socket. A refused stream dials no agent and touches no call."""
from __future__ import annotations

import asyncio
import json

import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from gateway.twilio.signature import sign
from gateway.twilio.twiml_voice import stream_parameters
from gateway.voice.elevenlabs import AgentEndpoint
from gateway.voice.services import VoiceServices
from spine.records import EventKind
from tests.support.elevenlabs_server import AgentServer, Close, Expect, Send, standard_script, tool_call
from tests.support.twilio_media_client import TwilioMediaClient
from tests.support.voice_helpers import (
    MARCUS,
    SECRET,
    UNKNOWN,
    bridge_server,
    start_parameters,
    voice_app,
    voice_settings,
)


async def _refused(calls, parameters, *, call_sid: str, raw_start: str | None = None) -> tuple[str, int | None, AgentServer]:
    async with AgentServer(standard_script(Close())) as agent, \
            bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=call_sid) as twilio:
            if raw_start is not None:
                await twilio._ws.send(raw_start)
            else:
                await twilio.start(parameters)
            outcome = await bridge.wait_done()
            code = await twilio.wait_closed()
    return outcome, code, agent


async def test_forged_caller_parameters_are_refused_before_any_agent_is_dialed(calls, spine):
    forged = {**start_parameters("CA_forged", UNKNOWN), "caller": MARCUS}
    outcome, code, agent = await _refused(calls, forged, call_sid="CA_forged")
    assert outcome == "refused_unsigned_start" and code == 1008 and agent.conversations == []
    assert await spine.get_trace("voice-CA_forged") is None
    assert [e.reason for e in await spine.events(EventKind.STREAM_REFUSED)] == ["unsigned_start"]


async def test_a_token_minted_for_another_call_is_refused(calls, spine):
    outcome, _, agent = await _refused(calls, start_parameters("CA_real", MARCUS), call_sid="CA_other")
    assert outcome == "refused_unsigned_start" and agent.conversations == []
    assert await spine.get_trace("voice-CA_other") is None


async def test_a_second_stream_for_a_live_call_cannot_touch_it(calls, spine):
    script = standard_script(Send(tool_call("get_work_order_detail", {"work_order_id": "WO-7"}, "tc_1")),
                             Expect("client_tool_result"), Close())
    async with AgentServer(script) as agent, bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid="CA_live") as real:
            await real.start(start_parameters("CA_live", MARCUS))
            await agent.wait_conversation()
            await bridge.wait_done()
    before = await spine.get_trace("voice-CA_live")
    outcome, code, second = await _refused(calls, start_parameters("CA_live", MARCUS), call_sid="CA_live")
    assert outcome == "refused_second_stream" and code == 1008 and second.conversations == []
    after = await spine.get_trace("voice-CA_live")
    assert after.participant_id == "p_marcus" and after.tool_calls == before.tool_calls


async def test_a_non_ascii_call_token_ends_the_stream_cleanly(calls, spine):
    bad = {**start_parameters("CA_ascii", MARCUS), "call_token": "é" * 64}
    outcome, code, agent = await _refused(calls, bad, call_sid="CA_ascii")
    assert outcome == "refused_unsigned_start" and code == 1008 and agent.conversations == []


@pytest.mark.parametrize("start", [
    {"event": "start", "start": {"streamSid": "MZ1"}},  # no callSid
    {"event": "start", "start": {"callSid": "CA_bad", "customParameters": {"caller": 5}}},
    {"event": "start", "start": "not an object"},
])
async def test_a_malformed_start_ends_the_stream_at_once_with_an_event(calls, spine, start):
    outcome, code, agent = await asyncio.wait_for(
        _refused(calls, None, call_sid="CA_bad", raw_start=json.dumps(start)), 3)
    assert outcome == "refused_malformed_start" and code == 1008 and agent.conversations == []
    assert [e.reason for e in await spine.events(EventKind.STREAM_REFUSED)] == ["malformed_start"]


# -- the websocket upgrade, through the route -------------------------------------------------
@pytest.fixture
async def gateway_url(spine):
    """The gateway's app on a real socket, with its public URL the socket's own."""
    async with AgentServer(standard_script(Close())) as agent:
        config = uvicorn.Config(voice_app(None), host="127.0.0.1", port=0, log_level="warning", lifespan="off")
        server = uvicorn.Server(config)
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        public = f"http://127.0.0.1:{port}"
        services = VoiceServices.build(voice_settings(public_url=public, elevenlabs_ws_url=agent.url), spine,
                                       Dispatcher(spine), OfflineModel())
        config.app.state.voice = services
        try:
            yield public, agent
        finally:
            await services.calls.drain()
            server.should_exit = True
            await task


async def test_an_unsigned_upgrade_is_refused_before_the_handshake(gateway_url, spine):
    public, agent = gateway_url
    url = public.replace("http", "ws") + "/voice/twilio/stream"
    for headers in ({}, {"X-Twilio-Signature": sign("not-the-token", url, {})}, {"X-Twilio-Signature": "é" * 28}):
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, additional_headers=headers):
                pass
        assert refused.value.response.status_code == 403
    assert agent.conversations == []
    assert {e.reason for e in await spine.events(EventKind.STREAM_REFUSED)} == {"unsigned_upgrade"}


async def test_a_signed_upgrade_is_bridged(gateway_url):
    public, agent = gateway_url
    url = public.replace("http", "ws") + "/voice/twilio/stream"
    async with TwilioMediaClient(url, call_sid="CA_signed_up",
                                 headers={"X-Twilio-Signature": sign(SECRET, url, {})}) as twilio:
        await twilio.start(stream_parameters(SECRET, "CA_signed_up", MARCUS, "+12065550100", verified=True))
        convo = await agent.wait_conversation()
        await twilio.wait_closed()
    assert convo.received[0]["dynamic_variables"]["person_id"] == "p_marcus"
