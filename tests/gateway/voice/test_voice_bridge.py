"""The media bridge between the Twilio media-stream stand-in and the ElevenLabs stand-in,
without Ray: audio both ways untouched, ping/pong, interruption, tool calls with the caller's
authority, speculative prefetch, and both sides closing cleanly."""
from __future__ import annotations

import asyncio

from gateway.voice.elevenlabs import AgentEndpoint, ElevenLabsApi
from spine.records import TranscriptEntry
from spine.verification import STIR_VERIFIED, CallVerification, VerificationMethod
from tests.support.elevenlabs_server import (
    AgentServer,
    ApiServer,
    Close,
    Expect,
    Send,
    agent_response,
    audio,
    interruption,
    metadata,
    ping,
    standard_script,
    tool_call,
    user_transcript,
)
from tests.support.twilio_media_client import TwilioMediaClient, frame
from tests.support.voice_helpers import MARCUS, bridge_server, start_parameters


async def _call(calls, script, caller=MARCUS, call_sid="CA_bridge_1", parameters=None, body=None):
    """Run one bridged call: the agent follows `script`; `body(client, convo)` plays the caller."""
    async with AgentServer(script) as agent, bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=call_sid) as twilio:
            await twilio.start(parameters if parameters is not None else start_parameters(call_sid, caller))
            convo = await agent.wait_conversation()
            if body is not None:
                await body(twilio, convo)
            outcome = await bridge.wait_done()
            await twilio.wait_closed()
        await asyncio.wait_for(convo.closed.wait(), 5)
    return outcome, twilio, convo


async def test_audio_crosses_untouched_both_ways(calls, spine):
    said = [frame(i) for i in range(3)]
    script = standard_script(Expect("user_audio_chunk", 3), Send(audio(frame(100), 1)), Send(audio(frame(101), 2)),
                             Expect("user_audio_chunk", 4))

    async def body(twilio, convo):
        for payload in said:
            await twilio.media(payload)
        await twilio.wait_for("media", 2)
        await twilio.media(frame(3))
        await asyncio.sleep(0.05)
        await twilio.hang_up()

    outcome, twilio, convo = await _call(calls, script, body=body)
    assert [m["user_audio_chunk"] for m in convo.of("user_audio_chunk")] == said + [frame(3)]
    assert twilio.payloads() == [frame(100), frame(101)]
    assert all(m["streamSid"] == "MZ0001" for m in twilio.of("media"))
    assert [m["mark"]["name"] for m in twilio.of("mark")] == ["audio-1", "audio-2"]
    assert outcome in ("twilio_stop", "twilio_closed")


async def test_initiation_data_is_the_callers_personalization(calls):
    # STIR/SHAKEN A on the signed voice webhook: a verified call gets the caller's whole context.
    outcome, _, convo = await _call(calls, standard_script(Close()),
                                    parameters=start_parameters("CA_bridge_1", MARCUS, verified=True))
    first = convo.received[0]
    assert first["type"] == "conversation_initiation_client_data"
    assert first["dynamic_variables"]["caller_name"] == "Marcus Johnson"
    assert first["dynamic_variables"]["interaction_id"] == "voice-CA_bridge_1"
    prompt = first["conversation_config_override"]["agent"]["prompt"]["prompt"]
    assert "[CONTEXT]" in prompt and "WO-7" in prompt
    assert first["conversation_config_override"]["agent"]["first_message"].startswith("Hi Marcus")
    assert outcome == "agent_closed"


async def test_ping_is_answered_with_pong(calls):
    script = standard_script(Send(ping(7, 30)), Expect("pong", fields={"event_id": 7}), Send(ping(8)),
                             Expect("pong", fields={"event_id": 8}), Close())
    _, _, convo = await _call(calls, script)
    assert [m["event_id"] for m in convo.of("pong")] == [7, 8]


async def test_interruption_clears_twilio_and_drops_stale_audio(calls):
    script = standard_script(Send(audio(frame(1), 5)), Send(interruption(5)), Send(audio(frame(2), 4)),
                             Send(audio(frame(3), 6)), Send(ping(9)), Expect("pong"), Close())

    _outcome, twilio, _ = await _call(calls, script)
    events = [m["event"] for m in twilio.received if m["event"] in ("media", "clear")]
    assert events == ["media", "clear", "media"]
    assert twilio.payloads() == [frame(1), frame(3)]
    assert twilio.of("clear")[0]["streamSid"] == "MZ0001"


async def _verified(spine, call_sid: str, person_id: str = "p_marcus") -> None:
    """The call verified as the voice webhook records a STIR/SHAKEN A verdict (tests/gateway/voice/
    test_voice_identity.py drives that webhook itself)."""
    await spine.put_call_verification(CallVerification(
        interaction_id=f"voice-{call_sid}", person_id=person_id, method=VerificationMethod.STIR_SHAKEN,
        evidence=STIR_VERIFIED))


async def test_client_tool_call_runs_with_the_callers_authority(calls, spine):
    await _verified(spine, "CA_tools")
    script = standard_script(
        Send(tool_call("get_work_order_detail", {"work_order_id": "WO-7"}, "tc_1")),
        Expect("client_tool_result", fields={"tool_call_id": "tc_1"}),
        Send(tool_call("pm_close_work_order", {"work_order_id": "WO-7"}, "tc_2")),
        Expect("client_tool_result", fields={"tool_call_id": "tc_2"}),
        Send(tool_call("request_photo", {"reason": "the leak"}, "tc_3")),  # SMS-only: not in the voice catalog
        Expect("client_tool_result", fields={"tool_call_id": "tc_3"}), Close())
    _, _, convo = await _call(calls, script, call_sid="CA_tools")
    allowed, refused, sms_only = convo.of("client_tool_result")
    assert allowed["is_error"] is False and "WO-7" in allowed["result"]
    assert refused["is_error"] is True and refused["result"]
    assert sms_only["is_error"] is True and "phone" in sms_only["result"]
    trace = await spine.get_trace("voice-CA_tools")
    assert [(c.name, c.decision) for c in trace.tool_calls] == [("get_work_order_detail", "allowed"),
                                                               ("pm_close_work_order", "refused"),
                                                               ("request_photo", "refused")]


async def test_prefetch_lands_as_a_contextual_update(calls, spine):
    await _verified(spine, "CA_prefetch")
    script = standard_script(Send(user_transcript("Hi, it's about the toilet thing again")),
                             Expect("contextual_update"), Close())
    _, _, convo = await _call(calls, script, call_sid="CA_prefetch")
    update = convo.of("contextual_update")[0]["text"]
    assert "get_work_order_detail" in update and "WO-7" in update
    trace = await spine.get_trace("voice-CA_prefetch")
    assert {p.name for p in trace.prefetch} >= {"get_work_order_detail"}


async def test_agent_closing_ends_the_call_and_refreshes_context(calls, spine):
    script = standard_script(Send(user_transcript("My toilet is still running in 204")),
                             Send(agent_response("I see WO-7 is in progress; Mike is on it.")), Close())
    outcome, twilio, _ = await _call(calls, script, call_sid="CA_end")
    assert outcome == "agent_closed" and twilio.closed.is_set()
    trace = await spine.get_trace("voice-CA_end")
    assert trace.transcript == [TranscriptEntry(role="user", text="My toilet is still running in 204"),
                                TranscriptEntry(role="agent", text="I see WO-7 is in progress; Mike is on it.")]
    assert trace.reply.startswith("I see WO-7")
    context = await spine.get_context("p_marcus")
    assert context is not None and context.active.last_channel == "voice"
    assert context.active.last_interaction_id == "voice-CA_end"
    assert "toilet" in context.summary


async def test_caller_hanging_up_closes_the_agent_side(calls, spine):
    script = standard_script(Expect("user_audio_chunk", 1), Expect("never_sent"))

    async def body(twilio, convo):
        await twilio.media(frame(1))
        await asyncio.sleep(0.05)
        await twilio.hang_up()

    outcome, _, convo = await _call(calls, script, call_sid="CA_hangup", body=body)
    assert outcome in ("twilio_stop", "twilio_closed")
    assert convo.closed.is_set()
    assert await spine.get_trace("voice-CA_hangup") is not None


async def test_unreachable_agent_closes_twilio_and_records_the_failure(calls, spine):
    endpoint = AgentEndpoint(ws_url="ws://127.0.0.1:9/v1/convai/conversation")
    async with bridge_server(calls, endpoint) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid="CA_down") as twilio:
            await twilio.start(start_parameters("CA_down", MARCUS))
            assert await bridge.wait_done() == "agent_unreachable"
            await twilio.wait_closed()
    assert await calls.failed("voice-CA_down")


async def test_agent_with_wrong_audio_format_is_noted(calls, spine):
    script = [Expect("conversation_initiation_client_data"), Send(metadata(fmt="pcm_16000")), Close()]
    await _call(calls, script, call_sid="CA_fmt")
    trace = await spine.get_trace("voice-CA_fmt")
    assert ("voice/bridge", "agent_output_format_pcm_16000") in [(e.kind, e.reason) for e in trace.events]


async def test_signed_url_is_fetched_when_an_api_key_and_agent_are_set(calls):
    async with AgentServer(standard_script(Close()), require_signature="sig_ok") as agent, \
            ApiServer(api_key="xi-test", ws_url=agent.url, signature="sig_ok") as api:
        endpoint = AgentEndpoint(ws_url=None, agent_id="agent_clara", api=ElevenLabsApi(api.base_url, "xi-test"))
        async with bridge_server(calls, endpoint) as bridge:
            async with TwilioMediaClient(bridge.url, call_sid="CA_signed") as twilio:
                await twilio.start(start_parameters("CA_signed", MARCUS))
                convo = await agent.wait_conversation()
                assert await bridge.wait_done() == "agent_closed"
    assert convo.query == {"agent_id": "agent_clara", "conversation_signature": "sig_ok"}
    assert api.requests[0]["query"] == {"agent_id": "agent_clara"}
