"""The intent confirmer over the real SDK (Haiku, yes/no; raises when it cannot say) and the backend factory."""
from __future__ import annotations

import pytest

from actors.model.anthropic_backend import AnthropicBackend
from actors.model.base import ModelRequest, ModelUnavailable
from actors.model.confirm import CONFIRM_SYSTEM, model_confirmer
from actors.model.factory import make_model, make_model_from
from actors.model.offline import OfflineModel
from gateway.settings import Settings
from tests.support.anthropic_server import error, text


@pytest.mark.parametrize("answer, verdict", [("yes", True), ("Yes.", True), ("no", False), ("No, spam.", False)])
async def test_confirmer_parses_the_fast_models_answer(anthropic_server, make_backend, answer, verdict):
    anthropic_server.script(text(answer))
    assert await model_confirmer(make_backend())("do you have 2BR units next month?") is verdict
    [sent] = anthropic_server.requests
    assert sent.body["model"] == "claude-haiku-4-5" and sent.body["max_tokens"] <= 5
    assert sent.body["system"][0]["text"] == CONFIRM_SYSTEM
    assert "<message>do you have 2BR units next month?</message>" in sent.body["messages"][0]["content"]


async def test_an_unavailable_or_unclear_confirmer_raises_so_the_classifier_verdict_stands(anthropic_server,
                                                                                             make_backend):
    anthropic_server.script(error(529), error(529), text("maybe?"))
    with pytest.raises(ModelUnavailable):
        await model_confirmer(make_backend(max_retries=1))("any 2 bedrooms?")
    assert len(anthropic_server.requests) == 2
    with pytest.raises(ModelUnavailable, match="neither yes nor no"):
        await model_confirmer(make_backend(max_retries=0))("any 2 bedrooms?")


async def test_factory_builds_anthropic_against_the_configured_base_url(anthropic_server):
    settings = Settings.from_env({"ANTHROPIC_API_KEY": "sk-test-standin", "ANTHROPIC_BASE_URL": anthropic_server.url})
    backend = make_model_from(settings, timeout_s=2.0)
    assert isinstance(backend, AnthropicBackend) and backend.turn_model == "claude-sonnet-4-6"
    anthropic_server.script(text("hello from the stand-in"))
    reply = await backend.complete(ModelRequest(messages=[{"role": "user", "content": "hi"}]))
    assert reply.text() == "hello from the stand-in"
    await backend.aclose()


def test_factory_defaults_to_offline_and_rejects_bad_input():
    assert isinstance(make_model(), OfflineModel)
    assert isinstance(make_model_from(Settings.from_env({})), OfflineModel)
    with pytest.raises(ValueError, match="needs ANTHROPIC_API_KEY"):
        make_model("anthropic")
    with pytest.raises(ValueError, match="unknown model kind 'gpt'"):
        make_model("gpt")
