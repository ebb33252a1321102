"""What every voice wire format shares: provider messages that tolerate new fields, and the
parsing of one JSON frame into the model its type names."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationError

from gateway.errors import MalformedInput
from gateway.untrusted import json_value


class Lenient(BaseModel):
    """Providers add fields over time; unknown ones are kept, never rejected."""

    model_config = ConfigDict(extra="allow")


class UnknownMessage(MalformedInput):
    """A frame that is not JSON, or of a type we do not handle (callers log and go on)."""


class MalformedMessage(UnknownMessage):
    """A frame of a type we handle that does not validate; `kind` is its type."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind


def parse_frame(raw: str | bytes, key: str, table: dict[str, type[BaseModel]]) -> BaseModel:
    """The model `table` names for the frame's `key` field (`type` or `event`), validated."""
    try:
        data = json_value(raw)
    except (TypeError, ValueError) as exc:
        raise UnknownMessage(f"not JSON: {str(raw)[:60]!r}") from exc
    kind = data.get(key) if isinstance(data, dict) else None
    model = table.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise UnknownMessage(f"unhandled {key} {data.get(key) if isinstance(data, dict) else None!r}")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise MalformedMessage(f"malformed {data.get(key)!r}: {exc.errors()[0]['msg']}", str(data.get(key))) from exc
