"""The opt-out phrases table (tests/data/opt_out_phrases.jsonl): every row, both ways. A plain
request to stop opts out in its language; "stop" inside another sentence ("I can't stop the
leak", "my neighbour won't stop texting me") does not."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from spine.intent.optout import opt_out_request

TABLE = Path(__file__).resolve().parents[2] / "data" / "opt_out_phrases.jsonl"
ROWS = [json.loads(line) for line in TABLE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_the_table_is_big_enough_both_ways_and_in_both_languages() -> None:
    assert len(ROWS) >= 40
    assert {r["language"] for r in ROWS if r["opt_out"]} == {"en", "es"}
    assert sum(1 for r in ROWS if not r["opt_out"]) >= 15


@pytest.mark.parametrize("row", ROWS, ids=[r["text"][:40] for r in ROWS])
def test_each_phrase(row: dict) -> None:
    found = opt_out_request(row["text"])
    assert (found is not None) == row["opt_out"], row["text"]
    if found is not None:
        assert found.language == row["language"]


def test_a_long_message_that_mentions_stopping_is_a_conversation() -> None:
    text = ("hi, the plumber came yesterday and fixed the sink but now the shower drips and I was wondering if "
            "someone could come again this week, also please stop texting me at 7am if possible thanks")
    assert opt_out_request(text) is None
