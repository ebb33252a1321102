"""Reading numbers and JSON that came from outside, so that bad input is a clear 400, never a 500.

Two traps of the standard library: `str.isdigit()` is true for '²' and other superscripts,
which `int()` then refuses (ValueError where a check said the text was fine); and `json.loads`
recurses once per nesting level, so `[[[[...]]]]` from a caller raises RecursionError, which no
`except ValueError` catches. Every webhook field that is a count and every JSON body or field
from outside is read here."""
from __future__ import annotations

import re
from typing import Any

import pydantic_core

_ASCII_DIGITS = re.compile(r"[0-9]{1,18}")  # a count, never a number too long to mean anything


def whole_number(raw: str | None) -> int | None:
    """The value of a string of ASCII digits, or None (empty, signs, spaces inside, '²', '٣')."""
    raw = (raw or "").strip()
    return int(raw) if _ASCII_DIGITS.fullmatch(raw) else None


def json_value(raw: str | bytes) -> Any:
    """The parsed JSON; ValueError (with the parser's reason) for anything that is not JSON,
    including nesting deeper than pydantic-core's limit (a few hundred levels)."""
    return pydantic_core.from_json(raw)  # its own parser: an error for depth, not a RecursionError
