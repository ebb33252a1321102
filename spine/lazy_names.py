"""A package's public names imported on first use (PEP 562): `__getattr__ = lazy_names(__name__,
HOMES)` in its `__init__`, HOMES naming each name's module. Used where a package's start-up
cost would fall on code that needs only one of its modules (every `gateway` CLI command imports
the settings, which need `actors.config` and `gateway.sms.options` only)."""
from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], object]:
    def __getattr__(name: str) -> object:
        if name in homes:
            return getattr(importlib.import_module(homes[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
