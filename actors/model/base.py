"""The model interface every backend implements. Requests and responses use the Anthropic
Messages API shapes (system blocks, tools, content blocks), the lingua franca of the loop."""
from __future__ import annotations

from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from actors.errors import ActorError
from actors.model.turn_facts import TurnFacts
from spine.records import Usage


class ModelUnavailable(ActorError):
    """The model could not answer (overloaded past retries, timeout, malformed answer)."""


class ModelRequest(BaseModel):
    system: list[dict[str, Any]] = Field(default_factory=list)  # text blocks, cache_control on the breakpoint
    tools: list[dict[str, Any]] = Field(default_factory=list)   # exactly catalog_for(caller), as API dicts
    messages: list[dict[str, Any]] = Field(default_factory=list)
    max_tokens: int = 1024
    purpose: Literal["turn", "refresh", "confirm"] = "turn"
    # The same turn as typed values, for backends that must not read the prose (never sent to an API).
    facts: TurnFacts | None = Field(default=None, exclude=True)


class ModelResponse(BaseModel):
    content: list[dict[str, Any]]  # {"type": "text", "text"} | {"type": "tool_use", "id", "name", "input"}
    stop_reason: str = "end_turn"
    usage: Usage = Field(default_factory=Usage)
    model: str = ""

    def text(self) -> str:
        return "".join(b.get("text", "") for b in self.content if b.get("type") == "text").strip()

    def tool_uses(self) -> list[dict[str, Any]]:
        return [b for b in self.content if b.get("type") == "tool_use"]


class ModelBackend(Protocol):
    name: str

    async def complete(self, request: ModelRequest) -> ModelResponse: ...
