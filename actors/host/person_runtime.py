"""What a host's PersonActors share and answer: the runtime (turn and refresh functions, lease,
clock, sizes), `Moved`, and `ActorInfo` for the admin API. Kept apart from the actor's logic."""
from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from pydantic import BaseModel, Field

from actors.errors import ActorError
from actors.host.ownership import Ownerships
from actors.model.base import ModelBackend
from actors.protocol.turn import TurnDeps, TurnResult
from actors.turn.opening import Opening
from spine.envelope import MessageEnvelope
from spine.records import TranscriptEntry
from spine.repo import Spine

TurnFn = Callable[[TurnDeps, MessageEnvelope, list[dict[str, Any]], Opening | None], Awaitable[TurnResult]]
RefreshFn = Callable[[Spine, ModelBackend, str, str, list[TranscriptEntry]], Awaitable[bool]]

async def default_turn(deps: TurnDeps, envelope: MessageEnvelope, history: list[dict[str, Any]],
                       opening: Opening | None) -> TurnResult:
    from actors.turn.interaction import run_interaction  # imported late: it pulls in the model loop

    return await run_interaction(deps, envelope, history, opening)


async def default_refresh(spine: Spine, model: ModelBackend, person_id: str, interaction_id: str,
                          transcript: list[TranscriptEntry]) -> bool:
    from actors.host.context_refresh import refresh_person_context

    return await refresh_person_context(spine, model, person_id, interaction_id, transcript)


class KeyedActor(Protocol):
    """A PersonActor as its host's bookkeeping sees it: the key it is filed under."""

    @property
    def key(self) -> str: ...


class Moved(ActorError):
    """Not ours to answer: another live host owns this key (`owner`), or the message belongs to
    another key (`rekey`: the Person an address resolved to, a merge survivor). The pool resends."""

    def __init__(self, key: str, owner: str | None = None, rekey: str | None = None) -> None:
        super().__init__(f"{key} is owned by {owner}" if owner else f"{key} now lives at {rekey}")
        self.key, self.owner, self.rekey = key, owner, rekey


class ActorInfo(BaseModel):
    """One active PersonActor, as the admin API lists it."""

    key: str
    person_id: str | None
    host: str
    activated_at: datetime
    last_active: datetime
    turns: int
    roles: list[str] = Field(default_factory=list)
    lease_epoch: int = 0
    queued: int = 0
    exchanges: int = 0  # message-and-reply pairs in the warm transcript (handed-over ones included)


@dataclass
class PersonRuntime:
    """What all PersonActors of one host share, so each actor stays a handful of fields."""

    deps: TurnDeps
    ownerships: Ownerships
    host_id: str
    idle_deactivate_s: float = 300.0
    renew_below_s: float = 315.0  # renew a lease with less than this left (the idle window + margin)
    transcript_turns: int = 10
    transcript_chars: int = 1600
    turn: TurnFn = default_turn
    refresh: RefreshFn = default_refresh
    clock: Callable[[], float] = time.time
    on_cold: Callable[[KeyedActor], None] = field(default=lambda actor: None)  # went cold: forget it


def at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)
