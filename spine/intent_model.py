"""The shipped intent classifier: is this first message from an unknown sender a rental inquiry?

A logistic regression over the message's words and word pairs (English and Spanish, accents
folded) plus shape features (spine.intent_shapes: a bedroom count, money, a resident's own home,
a neighbour's or relative's home, a seeker's lease elsewhere, an applicant's questions, an owner's
property, a job, a friend's search).
Its weights are a small JSON file in the package (spine/data/intent_weights.json), fitted by
`python -m spine.intent_model fit` on `training_rows()`: the train split of
tests/data/intent_first_messages.jsonl and the five spent unseen sets (SPENT; each was scored once
before its errors were studied, so it no longer measures unseen phrasing and serves better as
training). The dev and held-out splits are never fitted on; bench/intent.py scores them, and
`bench/intent.py --loso` fits without each spent set in turn and scores it. Loading takes a
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

from spine.intent_shapes import SHAPES

WEIGHTS = Path(__file__).resolve().parent / "data" / "intent_weights.json"
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "intent_first_messages.jsonl"
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
# All five were scored once as unseen sets and their errors then studied: spent, they are fitted on
# (their files and frozen hashes unchanged); a new round is measured on a new set written first.
SPENT = (UNSEEN_HELDOUT, UNSEEN_HELDOUT_2, UNSEEN_HELDOUT_3, UNSEEN_HELDOUT_4, UNSEEN_HELDOUT_5)
# Chosen on dev and leave-one-spent-set-out (bench/intent.py --loso): 3e-3 let rare words overfit.
L2 = 0.02

_WORD = re.compile(r"[a-z0-9$']+")
BIAS = "<bias>"


def fold(text: str) -> str:
    """Lowercase, accents removed, curly quotes straightened: 'Recámaras' and 'recamaras' are one word."""
    text = unicodedata.normalize("NFKD", (text or "").replace("\u2019", "'").lower())
    return "".join(c for c in text if not unicodedata.combining(c))


def features(text: str) -> set[str]:
    words = _WORD.findall(fold(text))
    stems = [w[:5] for w in words if len(w) > 5]  # "showing"/"showings", "rental"/"rentals" share a stem
    found = {BIAS, *words, *(f"{a} {b}" for a, b in itertools.pairwise(words)), *(f"{s}~" for s in stems)}
    folded = fold(text)
    found.update(name for name, pattern in SHAPES if pattern.search(folded))
    return found


class IntentVerdict(BaseModel):
    probability: float           # that the message is a rental inquiry
    top_features: list[str]      # the features that pushed hardest toward the verdict


class IntentModel:
    def __init__(self, weights: dict[str, float]) -> None:
        self.weights = weights

    def _score(self, found: set[str]) -> float:
        score = sum(self.weights.get(f, 0.0) for f in found)
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score))))

    def probability(self, text: str) -> float:
        return self._score(features(text))

    def explain(self, text: str, top: int = 4) -> IntentVerdict:
        found = features(text)
        p = self._score(found)
        sign = 1.0 if p >= 0.5 else -1.0
        weighed = [(self.weights.get(f, 0.0) * sign, f) for f in found if f != BIAS]
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
    """Plain stochastic gradient descent on the log loss, in a fixed order (reproducible weights)."""
    examples = [(features(r["text"]), 1.0 if r["label"] == "prospect" else 0.0) for r in rows]
    weights: dict[str, float] = {}
    for epoch in range(epochs):
        step = rate / (1.0 + epoch * 0.1)
        for index in range(len(examples)):
            feats, label = examples[(index * 7919 + epoch * 104729) % len(examples)]
            score = sum(weights.get(f, 0.0) for f in feats)
            error = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, score)))) - label
            for f in feats:
                w = weights.get(f, 0.0)
                weights[f] = w - step * (error + l2 * w)
    return {f: round(w, 4) for f, w in sorted(weights.items()) if abs(w) >= 0.01}


def main(argv: list[str]) -> int:
    if argv[:1] != ["fit"]:
        print("usage: python -m spine.intent_model fit", file=sys.stderr)
        return 2
    train = training_rows()
    weights = fit(train)
    WEIGHTS.parent.mkdir(exist_ok=True)
    WEIGHTS.write_text(json.dumps(weights, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
    print(f"fitted on {len(train)} training messages: {len(weights)} weights -> {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
