"""How every backend writes an item: non-empty keys, data as msgpack bytes (spine.codec, ARCHITECTURE decision 7)."""
from __future__ import annotations

from typing import Any

from spine.codec import pack, unpack
from spine.store.base import Item, StoreError


def pack_data(data: dict[str, Any], where: str) -> bytes:
    """Encode before any I/O, so data that cannot be stored fails at the caller, not half-written."""
    try:
        return pack(data)
    except (TypeError, ValueError, OverflowError) as exc:
        raise StoreError(f"item data at {where} cannot be stored as msgpack: {exc}") from exc


def unpack_data(blob: bytes) -> dict[str, Any]:
    data: dict[str, Any] = unpack(blob)
    return data


def check_keys(item: Item) -> None:
    """DynamoDB refuses empty key strings; SQLite would store them. Refuse them on both, so a
    key bug shows up in the first test run, not in the first DynamoDB deployment."""
    empty = [name for name in ("pk", "sk", "gsi1pk", "gsi1sk") if getattr(item, name) == ""]
    if empty:
        raise StoreError(f"item ({item.pk!r}, {item.sk!r}) has empty key attributes: {', '.join(empty)}")
