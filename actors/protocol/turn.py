"""The shapes of one interaction: what it needs (TurnDeps), how tools are run (ToolRunner),
and what it leaves (TurnResult). The PersonActor host builds TurnDeps; tests build them too."""
from __future__ import annotations

from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any, Protocol

from actors.config import TurnBudget
from actors.model.base import ModelBackend
from spine.codec import WireModel
from spine.intent.hints import IntentConfirmer
from spine.notification import Notification
from spine.records import AgentTrace, EventKind, TraceToolCall, Usage
from spine.repo import Spine
from spine.toolspec import ToolInvocation, ToolResult
from tools.authority import Authority, AuthoritySource
from tools.caller import Caller


@dataclass
class TurnStart:
    """A turn's first dispatcher hop (ToolRunner.begin_turn): the person's authority at once, and
    how the lookups started with it end (TracePrefetch rows), or None when none were offered."""

    authority: Authority
    lookups: Awaitable[list[dict[str, Any]]] | None = None


class ToolRunner(Protocol):
    """The only way a turn runs tools. In Ray it is the DispatcherActor (RayToolRunner); in
    tests, an in-process actors.dispatcher.dispatcher.Dispatcher."""

    async def run(self, invocation: ToolInvocation, caller: Caller) -> ToolResult: ...

    async def prefetch(self, invocations: list[ToolInvocation], caller: Caller) -> list[dict[str, Any]]:
        """Runs read-only lookups for the model's matching calls; how each ended (TracePrefetch)."""
        ...

    async def begin_turn(self, caller: Caller, wanted: list[ToolInvocation], *, fresh: bool = False) -> TurnStart:
        """The authority a due Opening re-checks and, in the same round trip, the wanted lookups
        that authority offers: one hop where two were (actors.turn.turn_start)."""
        ...

    async def prefetch_report(self, interaction_id: str) -> list[dict[str, Any]]: ...


@dataclass
class TurnDeps:
    spine: Spine
    model: ModelBackend
    tools: ToolRunner
    confirmer: IntentConfirmer | None = None
    budget: TurnBudget = field(default_factory=TurnBudget)
    prefetch: bool = True  # RuntimeConfig.prefetch: start speculative lookups beside the first model call
    # Who the person is (the Opening's Person and roles). By default the tool runner's process
    # answers it: the DispatcherActor derives authority for its gate anyway, so one store read
    # serves the prompt and the gate; a runner that is no AuthoritySource must be given one.
    authorities: AuthoritySource | None = None

    def __post_init__(self) -> None:
        if self.authorities is None:
            if not isinstance(self.tools, AuthoritySource):
                raise TypeError("TurnDeps needs an AuthoritySource: this tool runner is none")
            self.authorities = self.tools

    @property
    def authority_source(self) -> AuthoritySource:
        assert self.authorities is not None  # __post_init__ set it or refused
        return self.authorities


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
    suppressed: bool = False  # Clara answers nothing: spam (routing's reply_suppressed), or a takeover holds it (`held`)
    trace: AgentTrace

    @property
    def held(self) -> bool:
        """Suppressed because a staff member has the conversation (a takeover held it), not spam:
        read from the trace, which says so in a `takeover/held` event."""
        return self.suppressed and any(e.kind == EventKind.TAKEOVER_HELD for e in self.trace.events)

