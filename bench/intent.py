"""bench/intent.py: the shipped intent classifier on the HELD-OUT split of the labelled first
messages (never fitted on, never used to choose features or the threshold), English and Spanish
separately, beside the dev split and the regex hints it replaced (as they were on main); plus
load and decision times. Criteria: held-out recall >= 0.90 at precision >= 0.95 in each language."""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spine.intent_hints import PROMOTE_AT, regex_hints
from spine.intent_model import WEIGHTS, IntentModel, load_rows


def scores(rows: list[dict], fires) -> tuple[float, float, int]:
    tp = fp = fn = 0
    for r in rows:
        predicted, wanted = fires(r["text"]), r["label"] == "prospect"
        tp, fp, fn = tp + (predicted and wanted), fp + (predicted and not wanted), fn + (wanted and not predicted)
    return tp / max(1, tp + fp), tp / max(1, tp + fn), len(rows)


def main() -> int:
    started = time.perf_counter()
    model = IntentModel(json.loads(WEIGHTS.read_text(encoding="utf-8")))
    load_ms = (time.perf_counter() - started) * 1000
    rows = load_rows()
    sample = [r["text"] for r in rows]
    started = time.perf_counter()
    for text in sample:
        model.explain(text)
    decide_us = (time.perf_counter() - started) / len(sample) * 1e6
    started = time.perf_counter()
    for text in sample:
        regex_hints(text)
    hints_us = (time.perf_counter() - started) / len(sample) * 1e6
    ok = True
    print(f"intent classifier: {len(model.weights)} weights, load {load_ms:.1f} ms, decide {decide_us:.0f} us "
          f"(with its explanation; {hints_us:.0f} us for the whole hint step incl. the link and emergency vetoes), "
          f"promote at p >= {PROMOTE_AT}")
    for split in ("heldout", "dev"):
        for language in ("en", "es"):
            part = [r for r in rows if r["split"] == split and r["language"] == language]
            precision, recall, n = scores(part, lambda t: regex_hints(t).fires)
            line = f"{split:8} {language}  n={n:3}  precision {precision:.3f}  recall {recall:.3f}"
            if split == "heldout":
                met = precision >= 0.95 and recall >= 0.90
                ok = ok and met
                line += "  (criteria met)" if met else "  (CRITERIA NOT MET: recall >= 0.90 at precision >= 0.95)"
            print(line)
    print(f"load < 100 ms: {load_ms < 100}; decide < 1 ms: {decide_us < 1000}")
    return 0 if ok and load_ms < 100 and decide_us < 1000 else 1


if __name__ == "__main__":
    sys.exit(main())
