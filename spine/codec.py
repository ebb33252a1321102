"""The one msgpack codec of the product (ARCHITECTURE decision 7): pydantic models cross
processes (Serve replicas, PersonActor hosts, the DispatcherActor) as msgpack bytes of their
JSON-mode dumps, never as pickled classes; the store keeps item data the same way.

A model that crosses processes subclasses `WireModel`; a value that is a list of models, or
models and plain data, goes through `pack` / `unpack` (and `unpack_models` for a typed list).
"""
from __future__ import annotations

from typing import Any, Self, TypeVar

import msgpack
from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def _plain(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def pack(value: Any) -> bytes:
    """msgpack bytes of plain data, a model, or a list of models (each as its JSON-mode dump)."""
    packed: bytes = msgpack.packb(_plain(value), use_bin_type=True)
    return packed


def unpack(data: bytes) -> Any:
    # strict_map_key=False: a nested map with integer keys reads back as it was written.
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def unpack_models(model: type[M], data: bytes) -> list[M]:
    return [model.model_validate(item) for item in unpack(data)]


class WireModel(BaseModel):
    """A pydantic model that crosses processes as msgpack bytes."""

    def to_bytes(self) -> bytes:
        return pack(self)

    @classmethod
    def from_bytes(cls, data: bytes) -> Self:
        return cls.model_validate(unpack(data))
