"""The shapes of one interaction: what it needs (TurnDeps), how tools are run (ToolRunner),
and what it leaves (TurnResult). The PersonActor host builds TurnDeps; tests build them too."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from actors.model.base import ModelBackend
from actors.turn.authority import Authority
from spine.codec import WireModel
from spine.intent_hints import IntentConfirmer
from spine.notification import Notification
from spine.records import AgentTrace, TraceToolCall, Usage
from spine.repo import Spine
from spine.toolspec import ToolInvocation, ToolResult
from tools.caller import Caller


class ToolRunner(Protocol):
    """The only way a turn runs tools. In Ray it is the DispatcherActor (RayToolRunner); in
    tests, an in-process actors.dispatcher.dispatcher.Dispatcher."""

    async def run(self, invocation: ToolInvocation, caller: Caller) -> ToolResult: ...

    async def authority(self, person_id: str | None, property_id: str, *, fresh: bool = False) -> Authority:
        """The dispatcher's own derivation of who the person is at the property (the Opening
        takes its Person and roles from it, so one store read serves both)."""
        ...

    async def prefetch(self, invocations: list[ToolInvocation], caller: Caller) -> list[dict[str, Any]]:
        """Runs read-only lookups for the model's matching calls; how each ended (TracePrefetch)."""
        ...

    async def prefetch_report(self, interaction_id: str) -> list[dict[str, Any]]: ...


@dataclass
class TurnBudget:
    max_rounds: int = 4
    total_s: float = 12.0   # safely below Twilio's 15 s webhook limit
    model_call_s: float = 8.0


@dataclass
class TurnDeps:
    spine: Spine
    model: ModelBackend
    tools: ToolRunner
    confirmer: IntentConfirmer | None = None
    budget: TurnBudget = field(default_factory=TurnBudget)
    prefetch: bool = True  # RuntimeConfig.prefetch: start speculative lookups beside the first model call


@dataclass
class LoopOutcome:
    reply: str = ""
    model: str = ""
    usage: Usage = field(default_factory=Usage)
    tool_calls: list[TraceToolCall] = field(default_factory=list)
    notifications: list[Notification] = field(default_factory=list)  # what the tools queued (the trace's)
    model_ms: float = 0.0
    tools_ms: float = 0.0
    failure: str | None = None  # why the model could not finish, if it could not
    messages: list[dict[str, Any]] = field(default_factory=list)


class TurnResult(WireModel):
    interaction_id: str
    person_id: str | None
    reply: str
    suppressed: bool = False
    trace: AgentTrace

