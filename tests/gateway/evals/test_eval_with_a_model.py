"""`gateway eval` with a model configured (Anthropic through ANTHROPIC_BASE_URL, here the local
Messages API stand-in): the turns go to the turn model, the judge criteria are scored by the fast
model (a "no" fails the scenario), and an unknown sender the classifier is unsure of is decided by
the fast model, promoted as well as vetoed, as a host process decides it."""
from __future__ import annotations

from xml.etree import ElementTree as ET

import pytest

from actors.model.anthropic_backend import DEFAULT_FAST_MODEL, DEFAULT_TURN_MODEL
from actors.model.confirm import CONFIRM_SYSTEM
from gateway.cli import main as cli_main
from gateway.evals.runner import JUDGE_SYSTEM
from spine.intent.hints import regex_hints
from tests.support.anthropic_server import AnthropicStandIn, Reply, text

# In the classifier's unsure band, below its promotion threshold (p 0.50 on the round 5 weights):
# the classifier alone would not promote this sender.
UNSURE = "is the area around the building quiet at night?"
SCENARIOS = f"""\
role: prospect
feature: discovery
scenarios:
  - name: an-unsure-sender-promoted-by-the-fast-model
    sender: "+14155550777"
    turns:
      - say: "{UNSURE}"
        expect:
          roles: [prospect]
          confidence: inferred
          reply_contains: ["happy to help"]
        judge: ["Clara is welcoming"]
  - name: a-criterion-the-judge-finds-unmet
    sender: p_marcus
    turns:
      - say: "hi"
        judge: ["Clara quotes a monthly price"]
"""


def _system(body: dict) -> str:
    return " ".join(b.get("text", "") for b in body.get("system") or [])


def answer(body: dict) -> Reply:
    """The stand-in's model: the judge meets 'welcoming', not the price; the confirmer says yes."""
    system = _system(body)
    if system == JUDGE_SYSTEM:
        return text("yes" if "welcoming" in body["messages"][0]["content"] else "no")
    if system == CONFIRM_SYSTEM:
        return text("yes")
    return text("Hi! Happy to help you find a home here.")


@pytest.fixture
def standin(monkeypatch):
    with AnthropicStandIn(api_key="sk-test-standin") as server:
        server.default_reply = answer
        monkeypatch.setenv("GATEWAY_MODEL", "anthropic")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test-standin")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        yield server


def test_judges_run_on_the_fast_model_and_the_fast_model_decides_unsure_senders(standin, tmp_path, capsys):
    assert regex_hints(UNSURE).unsure and not regex_hints(UNSURE).fires
    (tmp_path / "discovery.yaml").write_text(SCENARIOS)
    junit = tmp_path / "out.xml"
    assert cli_main(["eval", str(tmp_path), "--junit", str(junit)]) == 1  # 1 of 2 passes, under 95%
    printed = capsys.readouterr().out
    assert "judge criteria: 2 scored, 0 skipped" in printed and "model: anthropic" in printed
    by_system = {}
    for body in standin.bodies():
        by_system.setdefault(_system(body), set()).add(body["model"])
    assert by_system.pop(JUDGE_SYSTEM) == {DEFAULT_FAST_MODEL}
    assert by_system.pop(CONFIRM_SYSTEM) == {DEFAULT_FAST_MODEL}
    judged = [b for b in standin.bodies() if _system(b) == JUDGE_SYSTEM]
    assert len(judged) == 2 and "Happy to help" in judged[0]["messages"][0]["content"]
    assert any(DEFAULT_TURN_MODEL in models for models in by_system.values())  # the turns themselves
    cases = {c.get("name"): c for c in ET.parse(junit).getroot().iter("testcase")}
    assert cases["an-unsure-sender-promoted-by-the-fast-model"].find("failure") is None
    unmet = cases["a-criterion-the-judge-finds-unmet"].find("failure")
    said = (unmet.get("message", "") + (unmet.text or "")) if unmet is not None else ""
    assert "judge: not met: Clara quotes a monthly price" in said
