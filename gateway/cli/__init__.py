"""`gateway` console script. Each subcommand lives in its own module with a `register(sub)`
that adds its parser and sets `func` (an async function taking the parsed args)."""
from __future__ import annotations

import argparse
import asyncio
import importlib
import sys

__all__ = ["COMMANDS", "build_parser", "main"]

# One module per subcommand, in the order `gateway --help` lists them.
COMMANDS = [
    "gateway.cli.seed",
    "gateway.cli.import_portfolio",
    "gateway.cli.buildium",
    "gateway.cli.whois",
    "gateway.cli.explain",
    "gateway.cli.voice_prompt",
    "gateway.cli.check_config",
    "gateway.cli.serve",
    "gateway.cli.demo",
    "gateway.cli.sms",
    "gateway.cli.email",
    "gateway.cli.telegram",
    "gateway.cli.admin_token",
    "gateway.cli.oncall",
    "gateway.cli.office",
    "gateway.cli.followups",
    "gateway.cli.eval",
    "gateway.cli.dynamodb",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gateway", description="Clara SMS, voice, email and Telegram gateway")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from gateway.settings import ConfigError
    from spine.store import StoreError

    args = build_parser().parse_args(argv)
    try:
        result = args.func(args)
        if asyncio.iscoroutine(result):
            result = asyncio.run(result)
    except ConfigError as exc:  # a bad setting: say which, one line each, no traceback
        for line in exc.lines:
            print(f"error: {line}", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())
