"""The wire shapes shared by the tool layer, prompt assembly and the model backends."""
from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from spine.notification import Notification
from spine.transfer import CallMove


class ToolSpec(BaseModel):
    """One tool as the Anthropic Messages API takes it (name, description, input_schema)."""

    name: str
    description: str
    input_schema: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})

    def to_api(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


class ToolInvocation(BaseModel):
    """A tool the model (or the prefetcher) wants to run."""

    name: str
    input: dict[str, Any] = Field(default_factory=dict)
    tool_use_id: str = ""


class OutboundText(BaseModel):
    """A text a tool asks the channel to send now (the step-up's one-time code). It travels with
    the result to the gateway, which sends it; it is never part of what the model sees or the
    trace records, and a replayed result carries none."""

    key: str  # names the outbox row, so a retried delivery texts once
    to: str
    from_: str
    body: str
    logged_body: str  # what the outbox keeps instead of `body` (the code masked)


# What the gate decided about one tool call: in the tool_result, the trace, the admin pages.
CallDecision = Literal["allowed", "refused"]


class ToolResult(BaseModel):
    """What comes back to the model as a `tool_result` block."""

    tool_use_id: str
    name: str
    content: str
    is_error: bool = False
    decision: CallDecision = "allowed"
    reason: str = ""
    rule: str = ""
    prefetched: bool = False
    latency_ms: float = 0.0
    store_reads: dict[str, int] = Field(default_factory=dict)  # what the dispatcher read for it
    texts: list[OutboundText] = Field(default_factory=list)
    # What the call queued for other people (its output's `notifications`): the trace lists them.
    notifications: list[Notification] = Field(default_factory=list)
    # The call a voice tool asks its channel to move (transfer_to_staff), never shown to the model.
    call_move: CallMove | None = None

    def to_api(self) -> dict[str, Any]:
        block: dict[str, Any] = {"type": "tool_result", "tool_use_id": self.tool_use_id, "content": self.content}
        if self.is_error:
            block["is_error"] = True
        return block
