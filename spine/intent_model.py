"""The shipped intent classifier: is this first message from an unknown sender a rental inquiry?

A logistic regression over the message's words and word pairs (English and Spanish, accents
folded) plus a few shape features (a bedroom count, a money amount, a link, a resident's "my
unit"). Its weights are a small JSON file in the package (spine/data/intent_weights.json), fitted
by `python -m spine.intent_model fit` on the training split of tests/data/intent_first_messages.jsonl
only; the held-out split is scored by bench/intent.py and never used for fitting. Loading takes a
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

WEIGHTS = Path(__file__).resolve().parent / "data" / "intent_weights.json"
DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "intent_first_messages.jsonl"

_WORD = re.compile(r"[a-z0-9$']+")
_SHAPES = (
    ("<bedrooms>", re.compile(r"\b\d\s*-?\s*(?:br|bd|bdr|bed|beds|bedrooms?|b1b|rec[aá]maras?|cuartos|habitaciones)\b"
                              r"|\b(?:one|two|three|una|dos|tres)[\s-]+(?:bed|bedrooms?|rec[aá]maras?|cuartos|habitaciones)\b",
                              re.IGNORECASE)),
    ("<money>", re.compile(r"\$\s?\d|\b\d{3,4}\s*(?:/\s*mo(?:nth)?|a month|al mes)\b", re.IGNORECASE)),
    ("<link>", re.compile(r"https?://|www\.|\.(?:com|co|net|info|ly)\b/?", re.IGNORECASE)),
    ("<my_home>", re.compile(r"\b(?:my|our|mi|nuestro)\s+(?:apartment|apt|unit|lease|rent|balance|departamento|"
                             r"depa|contrato|renta|unidad)\b|\b(?:unit|apt|del|el)\s+\d{3}\b|\bin\s+\d{3}\b|\bi\s+live\b|"
                             r"\bvivo\s+en\b", re.IGNORECASE)),
    ("<date>", re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\b|\b(?:enero|febrero|marzo|abril|"
                          r"mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b|\bnext\s+month\b|"
                          r"\bpr[oó]ximo\s+mes\b|\bmes\s+que\s+viene\b", re.IGNORECASE)),
)
BIAS = "<bias>"


def fold(text: str) -> str:
    """Lowercase, accents removed, curly quotes straightened: 'Recámaras' and 'recamaras' are one word."""
    text = unicodedata.normalize("NFKD", (text or "").replace("\u2019", "'").lower())
    return "".join(c for c in text if not unicodedata.combining(c))


def features(text: str) -> set[str]:
    words = _WORD.findall(fold(text))
    stems = [w[:5] for w in words if len(w) > 5]  # "showing"/"showings", "rental"/"rentals" share a stem
    found = {BIAS, *words, *(f"{a} {b}" for a, b in itertools.pairwise(words)), *(f"{s}~" for s in stems)}
    found.update(name for name, pattern in _SHAPES if pattern.search(text or ""))
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


def fit(rows: list[dict[str, Any]], epochs: int = 60, rate: float = 0.3, l2: float = 1e-3) -> dict[str, float]:
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
    train = [r for r in load_rows() if r["split"] == "train"]  # the held-out split is never fitted on
    weights = fit(train)
    WEIGHTS.parent.mkdir(exist_ok=True)
    WEIGHTS.write_text(json.dumps(weights, ensure_ascii=False, indent=0, sort_keys=True), encoding="utf-8")
    print(f"fitted on {len(train)} training messages: {len(weights)} weights -> {WEIGHTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
