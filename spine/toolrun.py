"""ToolRun: the idempotency record of one side-effecting tool call, keyed by
(interaction_id, tool_use_id), so a retried or replayed call never writes twice."""
from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, Field

from spine.identity import utcnow


class ToolRunState(StrEnum):
    RUNNING = "running"
    DONE = "done"


class ToolRun(BaseModel):
    interaction_id: str
    tool_use_id: str
    name: str
    person_id: str | None = None
    state: ToolRunState = ToolRunState.RUNNING
    content: str = ""  # the tool_result text, once done
    is_error: bool = False
    started_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
