"""Replies longer than Twilio's 1600-character message body are sent as several messages,
cut at a paragraph, line, sentence or word boundary when there is one in the second half."""
from __future__ import annotations

MAX_BODY_CHARS = 1600
_BREAKS = ("\n\n", "\n", ". ", "! ", "? ", "; ", ", ", " ")


def _cut_point(text: str, limit: int) -> int:
    window = text[: limit + 1]
    for mark in _BREAKS:
        at = window.rfind(mark, limit // 2, limit + 1)
        if at != -1:
            return min(at + len(mark.rstrip()), limit)
    return limit


def split_body(text: str, limit: int = MAX_BODY_CHARS) -> list[str]:
    """Parts of at most `limit` characters that read in order; [] for an empty text."""
    if limit < 2:
        raise ValueError("limit must be at least 2 characters")
    rest = (text or "").strip()
    parts: list[str] = []
    while len(rest) > limit:
        cut = _cut_point(rest, limit)
        parts.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        parts.append(rest)
    return parts
