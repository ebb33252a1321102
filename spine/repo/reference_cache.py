"""A short-lived, per-process cache of reference data (organizations, properties, units, vendors).

A turn reads the inbound property and the caller's units a dozen times across routing, the
gate and the handlers; these records change on a PMS sync, not per message. Entries live
`ttl_s` seconds (a change made by another process shows within that window) and are dropped at
once when this process writes them. Raw item data is kept, so every read returns a fresh model
that callers may modify freely.
"""
from __future__ import annotations

import time
from typing import Any

REFERENCE_TTL_S = 30.0


class ReferenceCache:
    def __init__(self, ttl_s: float = REFERENCE_TTL_S, max_entries: int = 10_000) -> None:
        self.ttl_s = ttl_s
        self.max_entries = max_entries
        self._entries: dict[str, tuple[float, dict[str, Any] | None]] = {}

    def get(self, key: str) -> tuple[bool, dict[str, Any] | None]:
        """(hit, data); data None is a cached absence."""
        entry = self._entries.get(key)
        if entry is None or time.monotonic() - entry[0] > self.ttl_s:
            return False, None
        return True, entry[1]

    def put(self, key: str, data: dict[str, Any] | None) -> None:
        if self.ttl_s <= 0:
            return
        if len(self._entries) >= self.max_entries:
            self._entries.clear()  # reference data is small; a rare full reset beats LRU bookkeeping
        self._entries[key] = (time.monotonic(), data)

    def drop(self, key: str) -> None:
        self._entries.pop(key, None)
