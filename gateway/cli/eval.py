"""`gateway eval evals/`: run the conversation scenarios against the configured model (the
offline model by default; Anthropic through ANTHROPIC_BASE_URL when GATEWAY_MODEL=anthropic),
print pass rates per role and L2 feature, write JUnit XML, exit 1 under the threshold."""
from __future__ import annotations

import logging
import sys
from pathlib import Path

from gateway.settings import Settings

DEFAULT_THRESHOLD = 0.95


def register(sub) -> None:
    p = sub.add_parser("eval", help="run the YAML conversation scenarios and score them per role and feature")
    p.add_argument("path", nargs="?", default="evals", help="a scenario file or a directory of them (default evals/)")
    p.add_argument("--junit", default=None, help="write JUnit XML here")
    p.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD,
                   help=f"lowest passing share of scenarios (default {DEFAULT_THRESHOLD})")
    p.add_argument("--only", default=None, help="run only scenarios whose name or feature contains this")
    p.add_argument("--verbose", "-v", action="store_true", help="list passing scenarios too")
    p.set_defaults(func=run)


async def run(args) -> int:
    # Imported here: every `gateway` command builds the parser, and only this one needs the runtime.
    from actors.model.factory import make_model_from
    from gateway.evals.report import render, summarize, write_junit
    from gateway.evals.runner import run_scenarios
    from gateway.evals.scenario import ScenarioError, load_scenarios

    try:
        scenarios = load_scenarios(Path(args.path))
    except (ScenarioError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.only:
        scenarios = [s for s in scenarios if args.only in s.name or args.only in s.feature_key]
    settings = Settings.from_env()
    try:
        model = make_model_from(settings)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    judge = model if model.name != "offline" else None  # offline, judge criteria are skipped and counted
    quiet = logging.getLogger("clara")  # the turns' routine warnings (context-build, degrade) are not the report
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        outcomes = await run_scenarios(scenarios, model, judge)
    finally:
        quiet.setLevel(level)
        # The model's HTTP pool belongs to this command's event loop, which ends with it.
        close = getattr(model, "aclose", None)  # the Anthropic backend has one; offline holds nothing
        if close is not None:
            await close()
    summary = summarize(outcomes)
    print(render(summary, outcomes, verbose=args.verbose))
    if args.junit:
        write_junit(outcomes, Path(args.junit))
    print(f"model: {model.name}; threshold {args.threshold:.0%}")
    return 0 if summary.overall.ratio >= args.threshold else 1
