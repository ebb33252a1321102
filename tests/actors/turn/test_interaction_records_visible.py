"""No person-specific records without an active role at the inbound property (issue 13, finding 6):
Ruth's number (deceased), the spam number, and Marcus texting Capitol Flats' line get no name, no
open work orders, no renewal in the SMS prompt; nor in the voice [CONTEXT] block."""
from __future__ import annotations

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.anthropic_backend import AnthropicBackend
from actors.model.offline import OfflineModel
from actors.protocol.turn import TurnDeps
from gateway.voice.services import VoiceServices
from tests.support.anthropic_server import AnthropicStandIn, text
from tests.support.turn_helpers import envelope
from tests.support.voice_helpers import VOICE_TOKEN, client_for, voice_app, voice_settings

CAPITOL_LINE = "+13035550200"
# (from, to, property) -> what must not reach the prompt
NO_AUTHORITY = {
    "ruth (deceased)": ("+12065551099", "+12065550100", "pf_yale", ["Ruth", "Alvarez", "305", "p_ruth"]),
    "marcus at capitol": ("+12065551001", CAPITOL_LINE, "pf_capitol", ["Marcus", "WO-7", "rw_yale_204_2027", "204"]),
    "spam": ("+18885550199", "+12065550100", "pf_yale", ["Unknown (spam)", "p_spam"]),
}


@pytest.fixture
def server():
    with AnthropicStandIn(api_key="sk-ctx") as s:
        yield s


@pytest.fixture
async def deps(spine, server):
    backend = AnthropicBackend(api_key="sk-ctx", base_url=server.url, timeout_s=2.0, max_retries=0)
    yield TurnDeps(spine=spine, model=backend, tools=Dispatcher(spine))
    await backend.aclose()


async def _volatile(deps, server, number: str, to: str, property_id: str) -> str:
    from actors.turn.interaction import run_interaction

    server.script(text("Hello, this is Clara."))
    result = await run_interaction(deps, envelope(number, "hi, any update on my repair?", to=to,
                                                  property_id=property_id))
    if result.suppressed:
        return ""
    return "".join(b["text"] for b in server.bodies()[-1]["system"])


@pytest.mark.parametrize("who", list(NO_AUTHORITY))
async def test_sms_prompt_carries_nothing_of_the_numbers_owner(deps, server, spine, who):
    number, to, property_id, secrets = NO_AUTHORITY[who]
    prompt = await _volatile(deps, server, number, to, property_id)
    for secret in secrets:
        assert secret not in prompt, (who, secret)


async def test_marcus_on_his_own_line_still_gets_his_records(deps, server):
    prompt = await _volatile(deps, server, "+12065551001", "+12065550100", "pf_yale")
    assert "Marcus" in prompt and "WO-7" in prompt


async def _context_block(spine, number: str, called: str) -> str:
    services = VoiceServices.build(voice_settings(), spine, Dispatcher(spine), OfflineModel())
    async with client_for(voice_app(services)) as client:
        r = await client.post("/voice/personalization", headers={"Authorization": f"Bearer {VOICE_TOKEN}"},
                              json={"caller_id": number, "agent_id": "a", "called_number": called,
                                    "call_sid": f"CA_{number[-4:]}"})
    await services.calls.drain()
    assert r.status_code == 200
    prompt = r.json()["conversation_config_override"]["agent"]["prompt"]["prompt"]
    return prompt[prompt.find("[CONTEXT]"):] if "[CONTEXT]" in prompt else prompt


@pytest.mark.parametrize("who", list(NO_AUTHORITY))
async def test_voice_context_carries_nothing_of_the_numbers_owner(spine, who):
    number, to, _, secrets = NO_AUTHORITY[who]
    block = await _context_block(spine, number, to)
    for secret in secrets:
        assert secret not in block, (who, secret)
    # A spam number gets the person-free goodbye (gateway/voice/suppression.py): no pointers at all.
    assert "Open work orders: " in block or (who == "spam" and "does not serve" in block)


async def test_marcus_calling_his_own_line_still_gets_his_context(spine):
    # Verified (STIR/SHAKEN A on a bridged call): the whole context. Unverified, it is withheld
    # (tests/gateway/voice/test_voice_unverified.py).
    calls = VoiceServices.build(voice_settings(), spine, Dispatcher(spine), OfflineModel()).calls
    call = await calls.open(caller_number="+12065551001", called_number="+12065550100", call_sid="CA_own",
                            verified=True)
    await calls.drain()
    block = call.start.prompt[call.start.prompt.index("[CONTEXT]"):]
    assert "Marcus Johnson" in block and "WO-7" in block
