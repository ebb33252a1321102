"""Spellings of work-order ids the model and people use: "WO-7", "wo_7", "7"."""
from __future__ import annotations

import re

from tools.errors import ToolError

WORK_ORDER_ID_PATTERN = r"^\s*(?:[Ww][Oo][-_ #]?)?#?[0-9]+\s*$"
_DIGITS = re.compile(r"[0-9]+")


class InvalidWorkOrderId(ToolError, ValueError):
    """A work-order id spelled no accepted way."""


def work_order_key(spelled: str) -> str:
    """The store id of a work order named any accepted way ("WO-7" -> "wo_7")."""
    match = _DIGITS.search(spelled or "")
    if match is None:
        raise InvalidWorkOrderId(f"not a work order id: {spelled!r}")
    return f"wo_{int(match.group())}"


def display_id(key: str) -> str:
    return f"WO-{work_order_key(key)[3:]}"
