"""`gateway followups due [--at] [--property]`: what would go out then and why, sending nothing."""
from __future__ import annotations

import asyncio
import json

import pytest

from desk.followups.plans import plan_tour
from desk.portfolio.demo import seed
from gateway.cli import main
from spine.records import OutboxStatus
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from spine.work import TourStatus
from tests.support.followup_helpers import seattle, tour


@pytest.fixture
def store(tmp_path, monkeypatch):
    path = tmp_path / "clara.db"

    async def _seed() -> None:
        spine = Spine(SqliteStore(path))
        await seed(spine)
        booked = tour(seattle(15, day=3))
        await spine.put_tour(booked)
        await plan_tour(spine, booked, now=seattle(9, day=1))
        other = tour(seattle(15, day=3), tour_id="tour_t2")
        await spine.put_tour(other.model_copy(update={"status": TourStatus.CANCELLED}))
        await plan_tour(spine, other, now=seattle(9, day=1))
        await spine.store.close()

    asyncio.run(_seed())
    monkeypatch.setenv("GATEWAY_STORE", f"sqlite:///{path}")
    return path


def _outbox(path):
    async def read():
        spine = Spine(SqliteStore(path))
        try:
            return await spine.outbox(OutboxStatus.PENDING, limit=500)
        finally:
            await spine.store.close()
    return asyncio.run(read())


def test_due_shows_what_would_go_and_what_would_stop_and_sends_nothing(store, capsys):
    assert main(["followups", "due", "--at", seattle(15, 1, day=2).isoformat(), "--json"]) == 0
    seen = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_id = {s["followup_id"]: s for s in seen}
    assert by_id["tour_t1-tour_reminder_24h"]["action"] == "send"
    assert "tomorrow" in by_id["tour_t1-tour_reminder_24h"]["body"]
    assert by_id["tour_t2-tour_reminder_24h"] | {"action": "stop", "why": "tour cancelled"} == \
        by_id["tour_t2-tour_reminder_24h"]
    assert "tour_t1-tour_reminder_2h" not in by_id  # not due yet
    assert not [r for r in _outbox(store) if r.id.startswith("followup-")]


def test_due_outside_the_window_says_when_and_filters_by_property(store, capsys):
    assert main(["followups", "due", "--at", seattle(22, day=2).isoformat(), "--property", "pf_yale"]) == 0
    out = capsys.readouterr().out
    assert "wait  tour_t1-tour_reminder_24h" in out and "goes Thu 09:00 local" in out
    assert main(["followups", "due", "--at", seattle(22, day=2).isoformat(), "--property", "pf_capitol"]) == 0
    assert capsys.readouterr().out == ""
