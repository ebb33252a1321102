"""Which model backend the gateway runs: Anthropic when asked for (it needs a key), the
deterministic offline policy otherwise."""
from __future__ import annotations

from typing import Any

from actors.config import DEFAULT_FAST_MODEL, DEFAULT_TURN_MODEL
from actors.model.base import ModelBackend
from actors.model.offline import OfflineModel

KINDS = ("anthropic", "offline")


def make_model(kind: str = "offline", api_key: str | None = None, base_url: str | None = None,
               turn_model: str = DEFAULT_TURN_MODEL, fast_model: str = DEFAULT_FAST_MODEL,
               timeout_s: float = 30.0, max_retries: int = 2) -> ModelBackend:
    kind = (kind or "offline").strip().lower()
    if kind == "offline":
        return OfflineModel()
    if kind == "anthropic":
        if not api_key:
            raise ValueError("GATEWAY_MODEL=anthropic needs ANTHROPIC_API_KEY")
        # Imported here: the SDK takes seconds to import, which every CLI command and every
        # process on the offline model would otherwise pay.
        from actors.model.anthropic_backend import AnthropicBackend

        return AnthropicBackend(api_key=api_key, base_url=base_url, turn_model=turn_model, fast_model=fast_model,
                                timeout_s=timeout_s, max_retries=max_retries)
    raise ValueError(f"unknown model kind {kind!r}; expected one of {', '.join(KINDS)}")


def make_model_from(settings: Any, **overrides: Any) -> ModelBackend:
    """From gateway Settings or actors RuntimeConfig (same field names)."""
    fields = {"kind": settings.model, "api_key": settings.anthropic_api_key,
              "base_url": settings.anthropic_base_url, "turn_model": settings.anthropic_turn_model,
              "fast_model": settings.anthropic_fast_model}
    return make_model(**{**fields, **overrides})
