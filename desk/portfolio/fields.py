"""The column types of a portfolio's CSV files: each parser reads one cell (already stripped; ""
when empty) and raises ValueError with the reason a person can act on. `cell()` writes a parsed
value back in the one spelling the import compares and `gateway export` writes."""
from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation
from enum import Enum
from zoneinfo import ZoneInfo, available_timezones

_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_EMAIL = re.compile(r"^[^@\s;,]+@[^@\s;,]+\.[^@\s;,]+$")
_LANGUAGE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$")
_TRUE, _FALSE = {"true", "yes", "y", "1", "x"}, {"false", "no", "n", "0", ""}
_ZONES: set[str] = set()


def email(raw: str) -> str:
    if not _EMAIL.match(raw):
        raise ValueError(f"{raw!r} is not an email address")
    return raw.lower()


def iso_date(raw: str) -> date:
    try:
        if not _DATE.match(raw):
            raise ValueError
        return date.fromisoformat(raw)
    except ValueError:
        raise ValueError(f"{raw!r} is not a date (YYYY-MM-DD)") from None


def whole(raw: str, *, minimum: int = 0) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{raw!r} is not a whole number") from None
    if value < minimum:
        raise ValueError(f"{value} is below {minimum}")
    return value


def dollars(raw: str) -> int:
    """`2450`, `2,450`, `$2450.00` -> 2450; cents other than .00 are refused, not rounded."""
    try:
        value = Decimal(raw.replace(",", "").removeprefix("$"))
    except InvalidOperation:
        raise ValueError(f"{raw!r} is not an amount in dollars") from None
    if value != value.to_integral_value() or value < 0:
        raise ValueError(f"{raw!r} is not a whole, non-negative number of dollars")
    return int(value)


def half_steps(raw: str) -> float:
    """Bathrooms: 1, 1.5, 2 ..."""
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{raw!r} is not a number") from None
    if value < 0 or (value * 2) % 1:
        raise ValueError(f"{raw!r} is not a count in halves (1, 1.5, 2 ...)")
    return value


def flag(raw: str) -> bool:
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ValueError(f"{raw!r} is not true or false")


def language(raw: str) -> str:
    if not _LANGUAGE.match(raw.lower()):
        raise ValueError(f"{raw!r} is not a language code (en, es, pt-br ...)")
    return raw.lower()


def timezone(raw: str) -> str:
    if not _ZONES:
        _ZONES.update(available_timezones())
    if raw not in _ZONES:
        raise ValueError(f"{raw!r} is not an IANA time zone (America/Los_Angeles ...)")
    ZoneInfo(raw)
    return raw


def listed(raw: str) -> list[str]:
    """`a; b;c` -> ["a", "b", "c"] (empty entries dropped)."""
    return [part.strip() for part in raw.split(";") if part.strip()]


def choice(raw: str, enum: type[Enum]) -> str:
    allowed = [str(m.value) for m in enum]
    if raw.lower() not in allowed:
        raise ValueError(f"unknown {raw!r} (one of {'|'.join(allowed)})")
    return raw.lower()


def cell(value: object) -> str:
    """A parsed value in the spelling compared and exported: None "", lists `a;b`, flags true/"",
    dates ISO, 1.0 bathrooms 1."""
    if value is None or value is False:
        return ""
    if value is True:
        return "true"
    if isinstance(value, list):
        return ";".join(str(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, date):
        return value.isoformat()
    return str(value)
