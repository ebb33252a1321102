"""The scenario format's other participants: what a turn queued for them is scored from their
outbox rows, on the scenario's wall clock (`at`), and a keyword answered before any turn is scored
without a trace."""
from __future__ import annotations

import pytest

from actors.model.offline import OfflineModel
from gateway.evals.runner import run_scenarios
from gateway.evals.scenario import ScenarioError, load_scenarios

K2 = """role: vendor
feature: schedule_confirmation
sender: p_mike
scenarios:
  - name: k2
    at: "{at}"
    turns:
      - say: "I'm 10 min out from WO-7"
        expect:
          notifications: [{{to: {to}, kind: notify, status: {status}, says: ["10 minutes"]}}]
"""


@pytest.mark.parametrize(("at", "to", "status", "passed"), [
    ("15:00", "p_marcus", "queued", True),
    ("15:00", "p_jordan", "queued", False),  # Marcus reported WO-7, not Jordan
    ("22:00", "p_marcus", "queued", False),  # at night it waits: deferred
    ("22:00", "p_marcus", "deferred", True),
])
async def test_the_other_participants_side_is_scored(tmp_path, at, to, status, passed):
    (tmp_path / "k2.yaml").write_text(K2.format(at=at, to=to, status=status))
    [outcome] = await run_scenarios(load_scenarios(tmp_path), OfflineModel(), None)
    assert outcome.passed is passed, outcome.failures
    if not passed:
        assert "queued: notify to p_marcus by sms" in outcome.failures[0]


def test_a_wall_clock_that_is_not_hh_mm_is_a_clear_error(tmp_path):
    (tmp_path / "bad.yaml").write_text(K2.format(at="3pm", to="p_marcus", status="queued"))
    with pytest.raises(ScenarioError, match="not HH:MM"):
        load_scenarios(tmp_path)
