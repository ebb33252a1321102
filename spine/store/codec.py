"""Item data as msgpack bytes (ARCHITECTURE decision 7), the one encoding every backend stores."""
from __future__ import annotations

from typing import Any

import msgpack

from spine.store.base import StoreError


def pack_data(data: dict[str, Any], where: str) -> bytes:
    """Encode before any I/O, so data that cannot be stored fails at the caller, not half-written."""
    try:
        return msgpack.packb(data, use_bin_type=True)
    except (TypeError, ValueError, OverflowError) as exc:
        raise StoreError(f"item data at {where} cannot be stored as msgpack: {exc}") from exc


def unpack_data(blob: bytes) -> dict[str, Any]:
    # strict_map_key=False: a nested map with integer keys must read back as it was written.
    return msgpack.unpackb(blob, raw=False, strict_map_key=False)
