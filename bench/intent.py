"""bench/intent.py: the shipped intent classifier on its HELD-OUT first messages, English and
Spanish separately: the held-out split of the labelled set, beside the dev split, with how many
errors fall in the unsure band a configured fast model decides. The eight unseen sets
(tests/data/intent_unseen_heldout.jsonl, _2 to _8) are spent: each was scored once before its
errors were studied, and they are now fitted on (spine.intent.model.training_rows), so their rows
here show only the fit. `--loso` measures unseen phrasing instead: for each spent set, fit without
it and score it ('loso*' is the eight together). `--baseline WEIGHTS.json` scores a previous weights
file beside the shipped one in the same run, at its own threshold (`--baseline-at`, 0.4 for the
weights before issue 28). Set 9 ('unseen9', tests/data/intent_unseen_heldout_9.jsonl) is the
measure of phrasing no one tuned for: written blind by another writer, never fitted on or studied
(a new round is measured on a new blind set); until it is written it is skipped, and
`--without-blind` leaves it unscored while a round is at work. Plus load and
decision times. Criteria, at precision >= 0.95 in each language: recall >= 0.93 on set 9, >= 0.90
on the held-out split and, with --loso, >= 0.93 on set 8 left out and on the eight left out in turn."""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from spine.intent.hints import PROMOTE_AT, UNSURE, regex_hints, veto_reasons
from spine.intent.model import SPENT, UNSEEN_HELDOUT_9, WEIGHTS, IntentModel, fit, load_rows, training_rows

RECALL_AT_LEAST = {"heldout": 0.90, "unseen9": 0.93, "loso8": 0.93, "loso*": 0.93}
PRECISION_AT_LEAST = 0.95
Fires = Callable[[str], bool]


def scores(rows: list[dict], fires: Fires) -> tuple[float, float, int]:
    tp = fp = fn = 0
    for r in rows:
        predicted, wanted = fires(r["text"]), r["label"] == "prospect"
        tp, fp, fn = tp + (predicted and wanted), fp + (predicted and not wanted), fn + (wanted and not predicted)
    return tp / max(1, tp + fp), tp / max(1, tp + fn), len(rows)


def in_band(rows: list[dict]) -> str:
    """Of the shipped classifier's errors, how many a configured second opinion would decide."""
    low, high = UNSURE
    errors = [regex_hints(r["text"]) for r in rows if regex_hints(r["text"]).fires != (r["label"] == "prospect")]
    return f"{sum(not h.vetoed_by and low <= h.probability < high for h in errors)}/{len(errors)}"


def model_fires(model: IntentModel, at: float = PROMOTE_AT) -> Fires:
    return lambda text: model.probability(text) >= at and not veto_reasons(text)


def criteria(split: str, precision: float, recall: float) -> tuple[bool, str]:
    if split not in RECALL_AT_LEAST:
        return True, ""
    if precision >= PRECISION_AT_LEAST and recall >= RECALL_AT_LEAST[split]:
        return True, "  criteria met"
    return False, f"  CRITERIA NOT MET: recall >= {RECALL_AT_LEAST[split]} at precision >= {PRECISION_AT_LEAST}"


def report(rows: list[dict], splits: tuple[str, ...], fires: Fires, band: bool, baseline: Fires | None) -> bool:
    ok = True
    for split in splits:
        for language in ("en", "es"):
            part = [r for r in rows if fnmatch(r["split"], split) and r["language"] == language]
            precision, recall, n = scores(part, fires)
            line = f"{split:8} {language}  n={n:3}  precision {precision:.3f}  recall {recall:.3f}"
            if band:
                line += f"  errors in the unsure band {in_band(part)}"
            if baseline is not None:
                old_precision, old_recall, _ = scores(part, baseline)
                line += f"  (baseline: precision {old_precision:.3f}  recall {old_recall:.3f})"
            met, note = criteria(split, precision, recall)
            ok = ok and met
            print(line + note)
    return ok


def loso() -> bool:
    """Each spent set scored by a model fitted on everything else: the proxy for unseen phrasing."""
    scored: list[dict] = []
    for k, path in enumerate(SPENT, start=1):
        model = IntentModel(fit(training_rows(tuple(p for p in SPENT if p != path))))
        fires = model_fires(model)
        scored += [{**r, "split": f"loso{k}", "fired": fires(r["text"])} for r in load_rows(path)]
    by_text = {r["text"]: r["fired"] for r in scored}
    splits = tuple(f"loso{k}" for k in range(1, len(SPENT) + 1)) + ("loso*",)
    return report(scored, splits, lambda text: by_text[text], band=False, baseline=None)


def per_message_us(sample: list[str], decide: Callable[[str], object], passes: int = 3) -> tuple[float, float]:
    """Wall and CPU time per message, the best of a few passes: the machine is shared, and other
    work only ever adds time (to the wall time most)."""
    wall = cpu = float("inf")
    for _ in range(passes):
        started, started_cpu = time.perf_counter(), time.process_time()
        for text in sample:
            decide(text)
        wall, cpu = min(wall, time.perf_counter() - started), min(cpu, time.process_time() - started_cpu)
    return wall / len(sample) * 1e6, cpu / len(sample) * 1e6


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a previous weights file to score beside the shipped one")
    parser.add_argument("--baseline-at", type=float, default=0.4, help="the baseline's promotion threshold")
    parser.add_argument("--loso", action="store_true", help="also fit without each spent set and score it (slow)")
    parser.add_argument("--without-blind", action="store_true",
                        help="leave the blind set unscored: for a round at work, which must not see it before its one scoring")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    model = IntentModel(json.loads(WEIGHTS.read_text(encoding="utf-8")))
    load_ms = (time.perf_counter() - started) * 1000
    spent = [{**r, "split": f"spent{k}"} for k, path in enumerate(SPENT, start=1) for r in load_rows(path)]
    rows = load_rows() + spent
    sample = [r["text"] for r in rows]
    decide_us, decide_cpu_us = per_message_us(sample, model.explain)
    hints_us, _ = per_message_us(sample, regex_hints)
    print(f"intent classifier: {len(model.weights)} weights ({WEIGHTS.stat().st_size // 1024} KB), load {load_ms:.1f} ms, "
          f"decide {decide_us:.0f} us ({decide_cpu_us:.0f} us CPU) "
          f"(with its explanation; {hints_us:.0f} us for the whole hint step incl. the link and emergency vetoes), "
          f"promote at p >= {PROMOTE_AT}")
    baseline = model_fires(IntentModel(json.loads(args.baseline.read_text(encoding="utf-8"))), args.baseline_at) \
        if args.baseline else None
    print(f"spent sets 1-{len(SPENT)} (fitted on: the fit, not generalization):")
    report(rows, ("spent*",), lambda t: regex_hints(t).fires, band=False, baseline=baseline)
    ok = report(rows, ("heldout", "dev"), lambda t: regex_hints(t).fires, band=True, baseline=baseline)
    if args.without_blind:
        print("unseen set 9: left unscored (--without-blind)")
    elif UNSEEN_HELDOUT_9.exists():
        print("unseen set 9 (written blind by another writer, never fitted on or tuned against):")
        unseen = load_rows(UNSEEN_HELDOUT_9)
        ok = report(unseen, ("unseen9",), lambda t: regex_hints(t).fires, band=True, baseline=baseline) and ok
    else:
        print(f"unseen set 9: set 9 not written yet ({UNSEEN_HELDOUT_9.name}), skipped")
    if args.loso:
        print("leave one spent set out (fit without set k, score set k):")
        ok = loso() and ok
    print(f"load < 100 ms: {load_ms < 100}; decide < 1 ms: {decide_us < 1000}")
    return 0 if ok and load_ms < 100 and decide_us < 1000 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
