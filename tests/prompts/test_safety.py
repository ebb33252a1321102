"""The one emergency vocabulary (spine.intent.emergency) on a labelled English/Spanish table, and the
safety net, the offline model and prefetch agreeing on it."""
from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from actors.model.offline.entities import extract
from prompts.safety import EMERGENCY_NUDGE, detect_emergency, emergency_nudge

TABLE = [json.loads(line) for line in
         (Path(__file__).resolve().parents[1] / "data" / "emergency_table.jsonl").read_text().splitlines() if line]


def test_the_table_is_labelled_in_both_languages():
    assert len(TABLE) >= 60
    for language in ("en", "es"):
        rows = [r for r in TABLE if r["language"] == language]
        assert any(r["kind"] for r in rows) and any(r["kind"] is None for r in rows)
    assert len([r for r in TABLE if r["language"] == "es"]) >= 20


@pytest.mark.parametrize("row", TABLE, ids=lambda r: r["text"][:40] or "empty")
def test_every_labelled_message(row):
    match = detect_emergency(row["text"])
    assert (match.kind if match else None) == row["kind"]


@pytest.mark.parametrize("row", TABLE, ids=lambda r: r["text"][:40] or "empty")
def test_the_offline_model_reads_the_same_vocabulary(row):
    found = extract(row["text"], date(2026, 11, 30)).emergency
    assert (found.kind if found else None) == row["kind"]


def test_a_message_past_the_kept_size_is_read_as_carefully():
    """Text messages' readings are kept; a long email's is not, and is read the same way."""
    from spine.intent.emergency import KEPT_CHARS

    long_report = "Hello, writing about my unit. " * (KEPT_CHARS // 30 + 1) + "There is smoke coming from the outlet!"
    assert len(long_report) > KEPT_CHARS
    match = detect_emergency(long_report)
    assert match is not None and match.kind == "fire"
    assert detect_emergency(long_report.replace("smoke coming from the outlet", "question about rent")) is None


def test_each_reading_of_the_same_words_is_its_own():
    """The offline model's rules assign fields of what extract() returns; a kept reading must
    not carry one turn's changes into the next read of the same words."""
    first = extract("omw to WO-7", date(2026, 11, 30))
    first.eta, first.work_orders = ("on the way", "soon"), ["WO-9"]
    again = extract("omw to WO-7", date(2026, 11, 30))
    assert again.eta is None and again.work_orders == ["WO-7"]


def test_the_nudge_sends_people_to_911_in_their_language():
    assert "911" in EMERGENCY_NUDGE and "safe place" in EMERGENCY_NUDGE
    assert "911" in emergency_nudge("es") and "peligro" in emergency_nudge("es")
