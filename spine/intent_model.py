"""The shipped intent classifier: is this first message from an unknown sender a rental inquiry?

A logistic regression over the message's words and word pairs (English and Spanish, accents
folded) plus a few shape features (a bedroom count, a money amount, a link, a resident's "my
unit", a resident's renewal or move-out, a neighbour's or relative's home, a resident who just
moved in, a seeker's budget or lease terms or lease elsewhere, a job or sales pitch).
Its weights are a small JSON file in the package (spine/data/intent_weights.json), fitted by
`python -m spine.intent_model fit` on the training split of tests/data/intent_first_messages.jsonl
only; its held-out split and the separate unseen held-out set (UNSEEN_HELDOUT) are scored by
bench/intent.py and never used for fitting. Loading takes a
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

_WORD = re.compile(r"[a-z0-9$']+")
_SHAPES = (
    ("<bedrooms>", re.compile(r"\b\d\s*-?\s*(?:br|bd|bdr|bed|beds|bedrooms?|b1b|rec[aá]maras?|cuartos|habitaciones)\b"
                              r"|\b(?:one|two|three|una|dos|tres)[\s-]+(?:bed|bedrooms?|rec[aá]maras?|cuartos|habitaciones)\b",
                              re.IGNORECASE)),
    ("<money>", re.compile(r"\$\s?\d|\b\d{3,4}\s*(?:/\s*mo(?:nth)?|a month|al mes)\b", re.IGNORECASE)),
    ("<link>", re.compile(r"https?://|www\.|\.(?:com|co|net|info|ly)\b/?", re.IGNORECASE)),
    ("<my_home>", re.compile(r"\b(?:my|our|mi|nuestro)\s+(?:apartment|apt|unit|lease|rent|balance|departamento|"
                             r"depa|depto|apartamento|piso|contrato|renta|alquiler|unidad)\b|\b(?:unit|apt|del|el)\s+\d{3}\b|\bin\s+\d{3}\b|\bi\s+live\b|"
                             r"\bvivo\s+en\b", re.IGNORECASE)),
    ("<date>", re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)\w*\b|\b(?:enero|febrero|marzo|abril|"
                          r"mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)\b|\bnext\s+month\b|"
                          r"\bpr[oó]ximo\s+mes\b|\bmes\s+que\s+viene\b", re.IGNORECASE)),
    # A resident speaking of the home they already have: renewing, leaving, a bill, a repair.
    ("<resident>", re.compile(r"\b(?:renew\w*|renova\w*|move[\s-]?out|moving\s+out|notice|aviso|sublet\w*|"
                              r"work\s+order|late\s+fee|recargo|autopay|balance|saldo|debo)\b|"
                              r"\bi(?:'m|\s+am)\s+(?:a\s+)?(?:resident|tenant)\b|\bi\s+live\s+(?:here|there)\b|"
                              r"\bvivo\s+aqui\b|\bya\s+vivo\b|\bsoy\s+(?:residente|inquilin[oa])\b|\b(?:current|existing)\s+residents?\b|"
                              r"\bsame\s+(?:building|complex|community)\b|\baqui\s+mismo\b|"
                              r"\b(?:my|mi)\s+(?:deposit|deposito|car|carro|spot|lugar|key|llave|package|paquete|"
                              r"ceiling|sink|toilet|door|puerta|neighbor|vecino)\b|\bsalir(?:me)?\s+del\b")),
    # A resident speaking of the unit beside theirs, or a relative's home: neither is theirs to rent.
    ("<other_home>", re.compile(r"\b(?:next\s+to|above|below|across\s+from)\s+(?:mine|me|us|ours)\b|"
                                r"\b(?:upstairs|downstairs)\s+from\s+(?:me|us)\b|\bthe\s+(?:unit|apartment|apt)\s+"
                                r"(?:upstairs|downstairs)\b|\b(?:depa\w*|departamento|apartamento|piso|unidad)\s+de\s+"
                                r"(?:al\s+lado|arriba|abajo|enfrente)\b|\b(?:abajo|arriba|enfrente)\s+del\s+mio\b|"
                                r"\b(?:my|our)\s+(?:son|daughter|mom|mother|dad|father|client|niece|nephew|brother|sister)'s\s+"
                                r"(?:apartment|apt|unit|lease|place)\b")),
    # Someone who has just moved in: a resident, however new.
    ("<new_resident>", re.compile(r"\bnew\s+here\b|\bfirst\s+(?:month|week)\s+here\b|\bjust\s+moved\s+in\b|"
                                  r"\bmoved\s+in\s+(?:yesterday|last\s+week)\b|\b(?:primer\s+mes|primera\s+semana)\s+aqui\b|"
                                  r"\bme\s+mude\s+ayer\b|\bacabo\s+de\s+(?:llegar|mudarme)\s+al\b")),
    # Someone seeking a home: looking, moving in, applying, a budget, a lease still to sign.
    ("<seeking>", re.compile(r"\b(?:looking|lookin|searching|hunting|shopping)\s+(?:for|4|around)\b|"
                             r"\b(?:busco|buscamos|buscando|ando\s+buscando)\b|\bmov(?:e|ing)\s+in\b|"
                             r"\bmud(?:ar(?:me|nos|se)?|o|amos|anza)\b|\bapply\w*|\baplicar\b|\bsolicit\w+|\bbudget\b|"
                             r"\bpresupuesto\b|\bfirst\s+(?:apartment|apt|place|home)\b|\bprimer\s+(?:depa\w*|hogar|"
                             r"apartamento|departamento)\b|\blease\s+(?:terms?|lengths?|options?)\b|"
                             r"\bask\s+(?:about|abt)\s+(?:units|apartments|renting|leasing|moving)\b|"
                             r"\bpreguntar\s+por\b|\bbecom\w+\s+a\s+(?:resident|tenant)\b|\bnew\s+(?:residents?|"
                             r"tenants?|renters?)\b|\bnuevos?\s+inquilinos?\b|\bprospective\b|\brelocat\w+|"
                             # a lease that ends somewhere else: "my lease" then is not one of ours
                             r"\belsewhere\b|\b(?:my|our)\s+current\s+(?:place|landlord|rental)\b|\ben\s+otro\s+lugar\b|"
                             r"\bdonde\s+vivo\s+ahora\b")),
    # A job seeker or someone selling a service: neither is renting.
    ("<pitch>", re.compile(r"\b(?:hiring|position|empleo|contratando|resume|porter|conserje)\b|\bjob\s+(?:at|opening|posting)\b|"
                           r"\b(?:porter|agent|technician|techs?|maintenance)\s+(?:job|position)s?\b|"
                           r"\b(?:busco|looking\s+for)\s+(?:trabajo|work|a\s+job)\b|"
                           r"\b(?:we|i)\s+(?:offer|sell|buy|provide|help)\b|\bour\s+(?:company|services?|app)\b|"
                           r"\b(?:ofrecemos|vendemos|compramos|somos\s+(?:una\s+empresa|de\s+la))\b")),
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
    folded = fold(text)
    found.update(name for name, pattern in _SHAPES if pattern.search(folded))
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


def fit(rows: list[dict[str, Any]], epochs: int = 60, rate: float = 0.3, l2: float = 3e-3) -> dict[str, float]:
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
