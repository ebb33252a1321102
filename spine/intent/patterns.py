"""The one way the rule-based readers (emergency detection, intent hints, the offline model)
build their patterns: any of the given regular expressions, case-insensitive."""
from __future__ import annotations

import re


def rx(*parts: str) -> re.Pattern[str]:
    """A case-insensitive pattern matching any of `parts` (each a regular expression)."""
    return re.compile("|".join(parts), re.IGNORECASE)
