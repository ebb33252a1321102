"""The store protocol every backend implements, and `open_store(url)` to pick one.

The protocol is a small item store (DynamoDB's shape): items live at (pk, sk), carry a
version for compare-and-set, and may be indexed under one secondary key (gsi1pk, gsi1sk).
All domain queries are written once, in `spine.repo`, on top of it.
"""
from __future__ import annotations

from spine.store.base import (
    ConditionFailed,
    Item,
    Store,
    StoreError,
    StoreUnavailable,
)
from spine.store.url import open_store

__all__ = ["ConditionFailed", "Item", "Store", "StoreError", "StoreUnavailable", "open_store"]
