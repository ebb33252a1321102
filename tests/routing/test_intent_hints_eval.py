"""Intent hints on a labeled set of first messages from unknown numbers: precision and recall."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from spine.intent_hints import minted_person_id, regex_hints

DATA = Path(__file__).resolve().parents[1] / "data" / "intent_hints.jsonl"
CATEGORIES = {"prospect", "tenant_unknown", "wrong_number", "advertiser", "spam", "hard"}


def load() -> list[dict]:
    return [json.loads(line) for line in DATA.read_text().splitlines() if line.strip()]


def test_the_labeled_set_is_broad_enough():
    rows = load()
    assert len(rows) >= 50
    assert {r["label"] for r in rows} == {"prospect", "not_prospect"}
    assert set(Counter(r["category"] for r in rows)) == CATEGORIES
    texts = {r["text"]: r["label"] for r in rows}
    assert texts["when does my lease end?"] == "not_prospect"
    assert texts["are you coming to the tour de france party"] == "not_prospect"
    assert texts["are you available for a call about SEO services"] == "not_prospect"


def test_precision_and_recall_on_the_labeled_set():
    rows = load()
    tp = fp = fn = 0
    misses = []
    for row in rows:
        fired, wanted = regex_hints(row["text"]).fires, row["label"] == "prospect"
        tp, fp, fn = tp + (fired and wanted), fp + (fired and not wanted), fn + (wanted and not fired)
        if fired != wanted:
            misses.append(f"{row['category']:>14}: {row['text']}")
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"\nintent hints on {len(rows)} messages: precision {precision:.3f} recall {recall:.3f} "
          f"(tp {tp}, fp {fp}, fn {fn})")
    print("\n".join(misses))
    assert precision >= 0.9
    assert recall >= 0.85


@pytest.mark.parametrize(("message", "kind"), [
    ("do you have 2BR units next month?", "availability"),
    ("Can I schedule a tour this weekend?", "tour"),
    ("How much is a 2 bedroom", "pricing"),
    ("Any 2 bedrooms coming up for rent soon?", "availability"),
    ("I'd like more info about renting an apartment there", "general"),
])
def test_the_inferred_intent_kind(message, kind):
    hints = regex_hints(message)
    assert hints.fires and hints.kind == kind


@pytest.mark.parametrize("message", ["when does my lease end?", "are you coming to the tour de france party",
                                     "are you available for a call about SEO services", "", "   "])
def test_hard_negatives_do_not_fire(message):
    assert not regex_hints(message).fires


def test_minted_ids_are_random_and_carry_only_the_last_four_digits():
    """Issue 13: an id that was the last four plus an unsalted hash of the number gave the number
    back by brute force over ~10^6 candidates; a random id gives back nothing."""
    import hashlib

    first, second = minted_person_id("+14155559876"), minted_person_id("+14155559876")
    assert first != second and first.startswith("p_new_9876_")
    assert "415555" not in first
    suffix = first.rsplit("_", 1)[1]
    assert suffix not in hashlib.sha256(b"phone:+14155559876").hexdigest()
