"""Drift guard (ADR "voice-personalization-schema"): every personalization payload has exactly
ElevenLabs' conversation-initiation shape, a scalar value for every variable the voice prompt
names (known, unknown, spam, deceased, merged, degraded callers alike), and the [CONTEXT] block
at the end of the prompt override."""
from __future__ import annotations

import pytest

from actors.dispatcher.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from gateway.voice.elevenlabs_wire import ConversationInitiationClientData
from gateway.voice.payload import initiation_data
from gateway.voice.services import VoiceServices
from prompts.voice import UNKNOWN_CALLER_VARIABLES, template_variables
from tests.support.voice_helpers import VOICE_TOKEN, YALE_LINE, client_for, voice_app, voice_settings

CALLERS = {
    "tenant": "+12065551001", "tenant_and_vendor": "+13035552020", "pm": "+12065550150",
    "unknown": "+14155559876", "spam": "+18885550199", "deceased": "+12065551099", "merged_old_number": "+12065551088",
    "unreadable": "not-a-number",
}


@pytest.fixture
async def payloads(spine) -> dict[str, dict]:
    services = VoiceServices.build(voice_settings(), spine, Dispatcher(spine), OfflineModel())
    out = {}
    async with client_for(voice_app(services)) as client:
        for who, number in CALLERS.items():
            r = await client.post("/voice/personalization", headers={"Authorization": f"Bearer {VOICE_TOKEN}"},
                                  json={"caller_id": number, "agent_id": "a", "called_number": YALE_LINE,
                                        "call_sid": f"CA_{who}"})
            assert r.status_code == 200, who
            out[who] = r.json()
    out["degraded"] = initiation_data(services.calls.fallback_start("CA_degraded")).model_dump(mode="json",
                                                                                               exclude_none=True)
    out["_voice_prompt"] = services.calls.voice_prompt
    await services.calls.drain()
    return out


def _each(payloads):
    return [(who, p) for who, p in payloads.items() if not who.startswith("_")]


def test_payload_shape_is_exactly_elevenlabs(payloads):
    for who, payload in _each(payloads):
        ConversationInitiationClientData.model_validate(payload)
        assert set(payload) == {"type", "dynamic_variables", "conversation_config_override"}, who
        assert payload["type"] == "conversation_initiation_client_data"
        assert set(payload["conversation_config_override"]) == {"agent"}, who
        assert set(payload["conversation_config_override"]["agent"]) == {"prompt", "first_message"}, who
        assert set(payload["conversation_config_override"]["agent"]["prompt"]) == {"prompt"}, who


def test_every_prompt_variable_has_a_scalar_value(payloads):
    names = template_variables(payloads["_voice_prompt"])
    assert names == set(UNKNOWN_CALLER_VARIABLES)
    for who, payload in _each(payloads):
        variables = payload["dynamic_variables"]
        agent = payload["conversation_config_override"]["agent"]
        used = names | template_variables(agent["prompt"]["prompt"]) | template_variables(agent["first_message"])
        assert used <= set(variables), (who, used - set(variables))
        assert all(isinstance(v, (str, int, float, bool)) for v in variables.values()), who


def test_override_is_the_voice_prompt_then_one_context_block(payloads):
    """Every caller but spam: a spam number's prompt only ends the call (test_voice_hardening.py)."""
    for who, payload in _each(payloads):
        if who == "spam":
            continue
        prompt = payload["conversation_config_override"]["agent"]["prompt"]["prompt"]
        assert prompt.startswith(payloads["_voice_prompt"]), who
        tail = prompt[len(payloads["_voice_prompt"]):].strip()
        assert tail.startswith("[CONTEXT]") and tail.endswith("[/CONTEXT]"), who
        assert prompt.count("[CONTEXT]") == 1, who


def test_no_one_is_greeted_by_name_before_the_call_is_verified(payloads):
    """Personalization calls are ElevenLabs-native, so unverified: the caller ID names no one (a
    verified call's naming is in test_voice_unverified.py)."""
    named = {who for who, p in _each(payloads) if p["dynamic_variables"]["caller_known"]}
    assert named == set()
    for who in CALLERS:
        assert payloads[who]["dynamic_variables"]["caller_name"] == UNKNOWN_CALLER_VARIABLES["caller_name"], who
