"""CSV injection: a cell a spreadsheet would read as a formula (a name or a brief a tenant typed,
`=HYPERLINK(...)`, `+1 ...`, `@SUM(...)`) is written with a leading single quote, as OWASP's
"CSV Injection" advises (cells beginning with = + - @, tab or carriage return); `gateway import`
takes that quote off again, so an export imported back reads exactly what was exported.

A value that already begins with quotes before such a character gets one more, so the round trip
holds for every value: unescape(escape(v)) == v."""
from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _looks_escaped(value: str) -> bool:
    return value.lstrip("'").startswith(FORMULA_STARTS)


def escape_cell(value: str) -> str:
    """The cell as written to a CSV a person may open in a spreadsheet."""
    return "'" + value if _looks_escaped(value) else value


def unescape_cell(value: str) -> str:
    """The cell as read from such a CSV: one leading quote before a formula start taken off."""
    return value[1:] if value.startswith("'") and _looks_escaped(value) else value


def escape_row(values: list[str]) -> list[str]:
    return [escape_cell(str(v)) for v in values]
