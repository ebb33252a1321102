"""JSON schemas for tool inputs, generated from the pydantic input models (one source of truth).

Pydantic's schema is cleaned for the model's eyes: no titles, and an optional field is simply not
`required` rather than `anyOf [.., null]`. The result is deterministic, so tool lists stay
byte-identical and prompt caching holds.
"""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict


class ToolInput(BaseModel):
    """Base of every tool's input model: unknown fields are an error the model can read."""

    model_config = ConfigDict(extra="forbid")


def _clean(node: Any) -> Any:
    if isinstance(node, dict):
        options = node.get("anyOf")
        if options and any(o == {"type": "null"} for o in options):
            kept = [o for o in options if o != {"type": "null"}]
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            node = {**(kept[0] if len(kept) == 1 else {"anyOf": kept}), **rest}
            if node.get("default", 0) is None:
                node.pop("default")
        return {k: _clean(v) for k, v in node.items() if k != "title"}
    if isinstance(node, list):
        return [_clean(v) for v in node]
    return node


def input_schema(model: type[BaseModel]) -> dict[str, Any]:
    schema: dict[str, Any] = _clean(model.model_json_schema())
    schema.setdefault("properties", {})
    if not schema.get("required"):
        schema.pop("required", None)
    return schema
