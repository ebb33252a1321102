"""Back with Clara after a transfer nobody took (issue 38): the <Connect><Stream> the result route
answers opens a second stream of the call, as its own interaction; Clara is told what happened and
says so first; what the caller then says is added to the escalation the failed transfer filed.
The routes in-process with the Twilio stand-in, the bridge with the ElevenLabs stand-in."""
from __future__ import annotations

import asyncio
import html
import re

import pytest

import spine.keys as keys
from gateway.voice.elevenlabs import AgentEndpoint
from tests.support.elevenlabs_server import AgentServer, Close, Send, standard_script, user_transcript
from tests.support.transfer_helpers import SATURDAY_NOON_SEATTLE, TwilioCall
from tests.support.twilio_media_client import TwilioMediaClient
from tests.support.voice_helpers import bridge_server, start_parameters, twilio_sid

MESSAGE = "please tell them the heater in 204 is broken and I work nights"


@pytest.fixture
def services(twilio_services):
    return twilio_services  # this module's calls reach the Twilio stand-in


def _parameters(twiml: str) -> dict[str, str]:
    return {html.unescape(n): html.unescape(v) for n, v in re.findall(r'<Parameter name="([^"]+)" value="([^"]*)"',
                                                                     twiml)}


async def _failed_transfer(client, twilio, spine, call_sid: str) -> tuple[dict[str, str], str]:
    spine.clock = lambda: SATURDAY_NOON_SEATTLE
    call = TwilioCall(client, twilio, call_sid)
    await call.personalize()
    transfer_id = (await call.transfer("the heater is broken"))["out"]["transfer_id"]
    dial = await call.fetch(twilio.call_updates.items[0].form["Url"])
    second = await call.dial_result(dial, "no-answer")
    back = await call.dial_result(second, "busy")
    return _parameters(back), transfer_id


async def _bridge(calls, call_sid: str, parameters: dict[str, str], script) -> tuple[str, object]:
    async with AgentServer(script) as agent, bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=call_sid) as media:
            await media.start(parameters)
            convo = await agent.wait_conversation()
            outcome = await bridge.wait_done()
            await media.wait_closed()
        await asyncio.wait_for(convo.closed.wait(), 5)
    return outcome, convo


async def test_clara_says_what_happened_and_the_message_reaches_the_escalation(client, twilio, spine, calls):
    call_sid = twilio_sid("CA", "return")
    parameters, transfer_id = await _failed_transfer(client, twilio, spine, call_sid)
    _, convo = await _bridge(calls, call_sid, parameters, standard_script(Send(user_transcript(MESSAGE)), Close()))
    first = convo.received[0]
    assert first["conversation_config_override"]["agent"]["first_message"].startswith("I'm sorry, I couldn't reach")
    prompt = first["conversation_config_override"]["agent"]["prompt"]["prompt"]
    assert "[TRANSFER RETURN]" in prompt and "Mike Torres" in prompt
    assert first["dynamic_variables"]["interaction_id"] == f"voice-{call_sid}-{transfer_id}"  # its own interaction
    await calls.drain()
    transfer = await spine.get_transfer(transfer_id)
    assert transfer.message == MESSAGE
    escalation = await spine.get_escalation(transfer.escalation_id)
    assert MESSAGE in escalation.summary and "Tried:" in escalation.summary
    assert (await spine.get_trace(f"voice-{call_sid}")) is not None  # the first interaction keeps its trace


async def test_a_forged_return_is_refused_as_a_second_stream(client, twilio, spine, calls):
    call_sid = twilio_sid("CA", "forged-return")
    _, transfer_id = await _failed_transfer(client, twilio, spine, call_sid)
    await spine.mark_once(keys.voice_stream_marker(call_sid))  # the call's first stream was bridged
    forged = {**start_parameters(call_sid, "+12065551001"), "transfer_id": transfer_id, "transfer_token": "0" * 64}
    outcome, _ = await _bridge_refused(calls, call_sid, forged)
    assert outcome == "refused_second_stream"  # a bad token is no return: just a second stream
    assert (await spine.get_transfer(transfer_id)).message == ""


async def _bridge_refused(calls, call_sid: str, parameters: dict[str, str]):
    async with AgentServer(standard_script(Close())) as agent, \
            bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=call_sid) as media:
            await media.start(parameters)
            outcome = await bridge.wait_done()
    return outcome, None


async def test_a_bridged_call_is_moved_through_the_calls_api(spine, calls, services, twilio):
    """The bridge's own tool call (ElevenLabs' client tool over the agent websocket): the same
    redirect as the webhook's, for the CallSid of the stream."""
    from gateway.voice.texts import CallTexts
    from tests.support.elevenlabs_server import Expect, tool_call
    from tests.support.transfer_helpers import MONDAY_10AM_SEATTLE

    spine.clock = lambda: MONDAY_10AM_SEATTLE
    call_sid = twilio_sid("CA", "bridged")
    texts = CallTexts.from_settings(services.settings, spine, services.http)
    script = standard_script(Send(tool_call("transfer_to_staff", {"reason": "wants the office"}, "tc_1")),
                             Expect("client_tool_result", fields={"tool_call_id": "tc_1"}), Close())
    async with AgentServer(script) as agent, \
            bridge_server(calls, AgentEndpoint(ws_url=agent.url), texts=texts) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=call_sid) as media:
            await media.start(start_parameters(call_sid, "+12065551001"))
            convo = await agent.wait_conversation()
            await bridge.wait_done()
    [result] = convo.of("client_tool_result")
    assert '"status":"connecting"' in result["result"].replace(" ", "") and not result["is_error"]
    [update] = twilio.call_updates.items
    assert update.sid == call_sid and "/voice/transfer/tr_" in update.form["Url"]
