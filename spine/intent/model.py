"""The shipped intent classifier: is this first message from an unknown sender a rental inquiry?

A logistic regression over the message's words, word pairs and character 3-5-grams (English and
Spanish, accents folded; the grams weigh less, for typos and unseen inflections) plus shape
features (spine.intent.shapes: a bedroom count, money, a resident's own home, a neighbour's or
relative's home, a seeker's lease elsewhere, an applicant's questions and house-rule questions, an
owner's property or manager, a vendor's or realtor's pitch or listing, a job, a wrong number asking
for a shop, a friend's search, a particular home asked after).
Its weights are a small JSON file in the package (spine/intent/data/intent_weights.json), fitted by
`python -m spine.intent.model fit` on `training_rows()`: the train split of
tests/data/intent_first_messages.jsonl and the eight spent unseen sets (SPENT; each was scored once
before its errors were studied, so it no longer measures unseen phrasing and serves better as
training). The dev and held-out splits are never fitted on; bench/intent.py scores them, and
`bench/intent.py --loso` fits without each spent set in turn and scores it. A new blind set is
measured only once it is written and frozen, before anyone studies it. Loading takes a
few milliseconds, a decision microseconds, no network. It is explainable: `explain()` names the
features that weighed most, and the trace keeps them.
"""
from __future__ import annotations

import heapq
import itertools
import json
import math
import re
import sys
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from spine.intent.shapes import SHAPES

WEIGHTS = Path(__file__).resolve().parent / "data" / "intent_weights.json"
DATA = Path(__file__).resolve().parents[2] / "tests" / "data" / "intent_first_messages.jsonl"
# Written apart from DATA, before its second round of training phrasings, and frozen: never fitted on or tuned against.
UNSEEN_HELDOUT = DATA.with_name("intent_unseen_heldout.jsonl")
# Likewise, written and frozen before the Spanish round of training phrasings (2) and before
# trying feature changes (3, which left the model as it was).
UNSEEN_HELDOUT_2 = DATA.with_name("intent_unseen_heldout_2.jsonl")
UNSEEN_HELDOUT_3 = DATA.with_name("intent_unseen_heldout_3.jsonl")
# Written by several writers' styles (terse, typos, voicemail, usted, Spanglish) and frozen before the
# round of leasing-question phrasings that names no unit, price or availability (issue 28 item 19).
UNSEEN_HELDOUT_4 = DATA.with_name("intent_unseen_heldout_4.jsonl")
# Set 4 was studied for its errors (tenants, owners, vendors, job seekers, friends using leasing
# words), so it no longer measures fairly: set 5 (terse, typos, voicemail, formal, usted, Rioplatense,
# Spain, Spanglish; many hard negatives) was written and frozen before the training round on those errors.
UNSEEN_HELDOUT_5 = DATA.with_name("intent_unseen_heldout_5.jsonl")
# Written blind by another writer (who never saw the training data, the features or the model) and
# frozen before the round fitted on sets 1-5; scored once on those weights (en P 0.968 R 0.938, es
# P 0.939 R 0.969: two Spanish owners/realtors promoted), then its errors were studied.
UNSEEN_HELDOUT_6 = DATA.with_name("intent_unseen_heldout_6.jsonl")
# Written blind by a third writer (who saw neither the data, the features, the model nor set 6)
# and frozen before round 3 (fitting on set 6); scored once on those weights (en P 1.000 R 1.000,
# es P 0.939 R 0.969: an heir letting a flat and a student asking for internship "vacantes"
# promoted), then its errors were studied.
UNSEEN_HELDOUT_7 = DATA.with_name("intent_unseen_heldout_7.jsonl")
# Written blind by another writer during round 4 (fitting on set 7), unseen by that round, and
# frozen after it; scored once on round-4 weights (en P 0.933 R 0.875, es P 1.000 R 0.781: prospects
# naming no home, price or "available", two displaced by a past fire or flood held back by the
# emergency veto, two realtors' pitches promoted), then its errors were studied.
UNSEEN_HELDOUT_8 = DATA.with_name("intent_unseen_heldout_8.jsonl")
# All eight were scored once as unseen sets and their errors then studied: spent, they are fitted on
# (their files and frozen hashes unchanged); a new round is measured on a new set written first.
SPENT = (UNSEEN_HELDOUT, UNSEEN_HELDOUT_2, UNSEEN_HELDOUT_3, UNSEEN_HELDOUT_4, UNSEEN_HELDOUT_5, UNSEEN_HELDOUT_6,
         UNSEEN_HELDOUT_7, UNSEEN_HELDOUT_8)
# Written blind by another writer before round 5 (fitting on set 8) and frozen before its weights;
# scored once by bench/intent.py as 'unseen9', never fitted on (not in SPENT) or tuned against: the
# measure of phrasing no one tuned for. Until it is written the file is absent and the bench says so.
# Its one scoring, on round-5 weights: en P 0.975 R 0.975, es P 0.974 R 0.950 (docs/limits.md).
UNSEEN_HELDOUT_9 = DATA.with_name("intent_unseen_heldout_9.jsonl")
# Chosen on dev and leave-one-spent-set-out (bench/intent.py --loso): 3e-3 let rare words overfit;
# re-checked on six sets (loso* en/es P/R): 0.015 1.000/0.979, 1.000/0.973; 0.02 0.995/0.984, same es; 0.03 0.995/0.969.
# Round 4, seven sets: 0.015, 0.02 and 0.03 alike (loso* en 0.995/0.973, es 1.000/0.973).
# Round 5, eight sets: 0.015 and 0.02 alike (en 0.996/0.973, es 1.000/0.980); 0.03 en 0.996/0.965, es 1.000/0.976.
L2 = 0.02

_WORD = re.compile(r"[a-z0-9$']+")
BIAS = "<bias>"
GRAM_SIZES = (3, 4, 5)
# Chosen on leave-one-spent-set-out and a typo'd copy of dev and held-out: at 1.0 the grams outvote
# the words (LOSO false prospects en 3 -> 11); at 0.35 LOSO loses precision; at 0.2 the typo'd copy's
# errors go 12 -> 7 (false prospects 2 -> 0) for one more LOSO error each way.
GRAM_VALUE = 0.2


def fold(text: str) -> str:
    """Lowercase, accents removed, curly quotes straightened: 'Recámaras' and 'recamaras' are one word."""
    text = unicodedata.normalize("NFKD", (text or "").replace("\u2019", "'").lower())
    return "".join(c for c in text if not unicodedata.combining(c))


def features(text: str) -> dict[str, float]:
    """Each feature with its value: 1 for a word, word pair, stem or shape; GRAM_VALUE for a
    character n-gram ('#<rent', '#ntal>'), so a typo or an unseen inflection still shares most of
    its grams with the word it misspells, while the grams together do not drown the words."""
    folded = fold(text)
    words = _WORD.findall(folded)
    stems = [w[:5] for w in words if len(w) > 5]  # "showing"/"showings", "rental"/"rentals" share a stem
    found: dict[str, float] = dict.fromkeys((f"#{g}" for w in words for g in _grams(f"<{w}>")), GRAM_VALUE)
    found.update(dict.fromkeys((BIAS, *words, *(f"{a} {b}" for a, b in itertools.pairwise(words)),
                                *(f"{s}~" for s in stems)), 1.0))
    found.update((name, 1.0) for name, pattern in SHAPES if pattern.search(folded))
    return found


def _grams(marked: str) -> list[str]:
    return [marked[i:i + n] for n in GRAM_SIZES for i in range(len(marked) - n + 1)]


class IntentVerdict(BaseModel):
    probability: float           # that the message is a rental inquiry
    top_features: list[str]      # the features that pushed hardest toward the verdict


class IntentModel:
    def __init__(self, weights: dict[str, float]) -> None:
        self.weights = weights

    def _score(self, found: dict[str, float]) -> float:
        score = sum(self.weights.get(f, 0.0) * value for f, value in found.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))

    def probability(self, text: str) -> float:
        return self._score(features(text))

    def explain(self, text: str, top: int = 4) -> IntentVerdict:
        found = features(text)
        p = self._score(found)
        sign = 1.0 if p >= 0.5 else -1.0
        weighed = [(self.weights.get(f, 0.0) * value * sign, f) for f, value in found.items() if f != BIAS]
        ranked = heapq.nlargest(top, weighed)
        return IntentVerdict(probability=round(p, 4), top_features=[f for w, f in ranked if w > 0])


@lru_cache(maxsize=1)
def shipped_model() -> IntentModel:
    return IntentModel(json.loads(WEIGHTS.read_text(encoding="utf-8")))


def load_rows(path: Path = DATA) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def training_rows(spent: tuple[Path, ...] = SPENT) -> list[dict[str, Any]]:
    """What `fit` learns from: the train split and the spent unseen sets, never dev or held-out."""
    return [r for r in load_rows() if r["split"] == "train"] + [r for path in spent for r in load_rows(path)]


def fit(rows: list[dict[str, Any]], epochs: int = 60, rate: float = 0.3, l2: float = L2) -> dict[str, float]:
    """Plain stochastic gradient descent on the log loss, in a fixed order (reproducible weights).
    numpy only here, to fit in seconds: deciding needs none."""
    import numpy as np

    index: dict[str, int] = {}
    examples = []
    for r in rows:
        found = features(r["text"])
        names = sorted(found)
        examples.append((np.array([index.setdefault(f, len(index)) for f in names]),
                         np.array([found[f] for f in names]), 1.0 if r["label"] == "prospect" else 0.0))
    weights = np.zeros(len(index))
    for epoch in range(epochs):
        step = rate / (1.0 + epoch * 0.1)
        for i in range(len(examples)):
            at, values, label = examples[(i * 7919 + epoch * 104729) % len(examples)]
            score = float(weights[at] @ values)
            error = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score)))) - label
            weights[at] -= step * (error * values + l2 * weights[at])
    return {f: round(float(weights[i]), 4) for f, i in sorted(index.items()) if abs(weights[i]) >= 0.01}


def main(argv: list[str]) -> int:
    if argv[:1] != ["fit"]:
        print("usage: python -m spine.intent.model fit", file=sys.stderr)
        return 2
    train = training_rows()
    weights = fit(train)
    WEIGHTS.parent.mkdir(exist_ok=True)
    WEIGHTS.write_text(json.dumps(weights, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
    print(f"fitted on {len(train)} training messages: {len(weights)} weights -> {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
