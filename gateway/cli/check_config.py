"""`gateway check-config [ray_config.yaml]`: validate the Serve config and the environment.

Prints one line per problem (`error: where: what`) and per warning, then exits 1 if there was
any problem. `gateway serve` runs the same check (gateway.config_check) before starting Ray.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from gateway.config_check import check_config

DEFAULT_CONFIG = "ray_config.yaml"


def register(sub) -> None:
    p = sub.add_parser("check-config", help="validate ray_config.yaml and the environment, one line per problem")
    p.add_argument("config", nargs="?", default=DEFAULT_CONFIG, help=f"Serve config file (default ./{DEFAULT_CONFIG})")
    p.add_argument("--no-store", action="store_true", help="do not try to reach the store")
    p.set_defaults(func=run)


def run(args) -> int:
    checked = check_config(Path(args.config), os.environ, check_store=not args.no_store)
    for line in checked.warnings:
        print(f"warning: {line}", file=sys.stderr)
    for line in checked.problems:
        print(f"error: {line}", file=sys.stderr)
    if not checked.ok:
        return 1
    settings = checked.settings
    assert settings is not None  # a config that passed its check has its settings
    print(f"{args.config}: ok (store {settings.store_url}, model {settings.model}, public URL {settings.public_url})")
    return 0
