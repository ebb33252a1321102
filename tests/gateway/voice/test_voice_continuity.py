"""Cross-channel continuity (ADR Finding 6.9): what a caller said by SMS shows in the voice
[CONTEXT], and what they said on a call shows in the next SMS prompt."""
from __future__ import annotations

from actors.dispatcher.dispatcher import Dispatcher
from actors.host.context_refresh import refresh_person_context
from actors.model.base import ModelRequest, ModelResponse
from actors.model.offline import OfflineModel
from actors.protocol.turn import TurnDeps
from actors.turn.interaction import run_interaction
from gateway.voice.elevenlabs import AgentEndpoint
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.records import TranscriptEntry
from tests.support.elevenlabs_server import (
    AgentServer,
    Close,
    Expect,
    Send,
    agent_response,
    standard_script,
    user_transcript,
)
from tests.support.twilio_media_client import TwilioMediaClient
from tests.support.voice_helpers import MARCUS, YALE_LINE, bridge_server, start_parameters


class RecordingModel:
    """The offline model, keeping every request it was sent (to read the SMS prompt)."""

    name = "recording-offline"

    def __init__(self) -> None:
        self.inner, self.requests = OfflineModel(), []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return await self.inner.complete(request)


async def _sms(spine, model, body: str, interaction_id: str) -> str:
    """One SMS interaction as a PersonActor runs it: the turn, then the end-of-interaction refresh."""
    deps = TurnDeps(spine=spine, model=model, tools=Dispatcher(spine))
    env = MessageEnvelope(message_id=f"SM_{interaction_id}", interaction_id=interaction_id, channel=Channel.SMS,
                          from_address=MARCUS, to_address=YALE_LINE, body=body, property_id="pf_yale")
    result = await run_interaction(deps, env)
    transcript = [TranscriptEntry(role="user", text=body), TranscriptEntry(role="agent", text=result.reply)]
    assert await refresh_person_context(spine, model, "p_marcus", interaction_id, transcript)
    return result.reply


async def test_sms_then_call_then_sms(spine, calls):
    model = RecordingModel()
    await _sms(spine, model, "The hallway light outside 204 keeps flickering", "ix_sms_1")

    # A bridged call verified by STIR/SHAKEN A (an unverified one withholds the context: test_voice_unverified.py).
    start = (await calls.open(caller_number=MARCUS, called_number=YALE_LINE, call_sid="CA_cont", verified=True)).start
    context_block = start.prompt[start.prompt.index("[CONTEXT]"):]
    assert "hallway light" in context_block and "Last channel: sms" in context_block

    script = standard_script(Expect("user_audio_chunk", 0), Send(user_transcript("Also the dishwasher is leaking")),
                             Send(agent_response("I'll get a work order going for the dishwasher.")), Close())
    async with AgentServer(script) as agent, bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid="CA_cont") as twilio:
            await twilio.start(start_parameters("CA_cont", MARCUS, verified=True))  # STIR/SHAKEN A
            assert await bridge.wait_done() == "agent_closed"
    stored = await spine.get_context("p_marcus")
    assert stored.active.last_channel == Channel.VOICE and stored.active.last_interaction_id == "voice-CA_cont"

    model.requests.clear()
    await _sms(spine, model, "any update?", "ix_sms_2")
    turn = next(r for r in model.requests if r.purpose == "turn")
    volatile = turn.system[-1]["text"]
    assert "dishwasher" in volatile and '"last_channel": "voice"' in volatile
