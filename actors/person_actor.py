"""PersonActor: a virtual actor for one active participant (ARCHITECTURE decision 1).

Not a Ray actor: a small object, many to a host process, with its own mailbox. Its turns run one
at a time in arrival order; different persons run in parallel on the host's event loop. It
activates on its first message (takes the owner lease, warms roles and personContext from the
store), and deactivates when idle: that is the end of the interaction, which refreshes the
personContext and releases the lease. When idle it holds no task, only a few small fields.
"""
from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from pydantic import BaseModel, Field

from actors.lease import Lease, LeaseHeld, LeaseLost, Leases
from actors.model.base import ModelBackend
from actors.turn_types import TurnDeps, TurnResult
from spine.context import PersonContext
from spine.envelope import MessageEnvelope
from spine.identity import PersonRole
from spine.records import InboundMessage, InboundStatus
from spine.repo import Spine
from spine.roles import resolve_active_roles

log = logging.getLogger("clara.person_actor")

TurnFn = Callable[[TurnDeps, MessageEnvelope, list[dict[str, Any]]], Awaitable[TurnResult]]
RefreshFn = Callable[[Spine, ModelBackend, str, str, list[dict[str, Any]]], Awaitable[bool]]

_IDLE = "idle"  # mailbox marker: deactivate unless mail arrived behind it
_STOP = "stop"  # mailbox marker: deactivate (host draining)


async def default_turn(deps: TurnDeps, envelope: MessageEnvelope, history: list[dict[str, Any]]) -> TurnResult:
    from actors.interaction import run_interaction  # imported late: it pulls in prompts and tools

    return await run_interaction(deps, envelope, history)


async def default_refresh(spine: Spine, model: ModelBackend, person_id: str, interaction_id: str,
                          transcript: list[dict[str, Any]]) -> bool:
    from actors.context_refresh import refresh_person_context

    return await refresh_person_context(spine, model, person_id, interaction_id, transcript)


class Moved(Exception):
    """Another live host owns this person; the pool resends the message to `owner`."""

    def __init__(self, key: str, owner: str) -> None:
        super().__init__(f"person {key} is owned by {owner}")
        self.key, self.owner = key, owner


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


@dataclass
class PersonRuntime:
    """What all PersonActors of one host share, so each actor stays a handful of fields."""

    deps: TurnDeps
    leases: Leases
    host_id: str
    idle_deactivate_s: float = 300.0
    renew_below_s: float = 315.0  # renew a lease with less than this left (the idle window + margin)
    transcript_turns: int = 10
    transcript_chars: int = 1600
    turn: TurnFn = default_turn
    refresh: RefreshFn = default_refresh
    clock: Callable[[], float] = time.time
    on_cold: Callable[["PersonActor"], None] = field(default=lambda actor: None)


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, timezone.utc)


class PersonActor:
    __slots__ = ("key", "rt", "person_id", "property_id", "roles", "context", "transcript", "lease",
                 "activated_at", "last_active", "turns", "last_interaction_id", "_mailbox", "_running")

    def __init__(self, key: str, runtime: PersonRuntime) -> None:
        self.key, self.rt = key, runtime
        self.person_id: str | None = None
        self.property_id: str | None = None
        self.roles: list[PersonRole] = []
        self.context: PersonContext | None = None
        self.transcript: deque[dict[str, str]] = deque(maxlen=2 * runtime.transcript_turns)
        self.lease: Lease | None = None
        self.activated_at = self.last_active = runtime.clock()
        self.turns = 0
        self.last_interaction_id: str | None = None
        self._mailbox: deque[tuple[MessageEnvelope | str, asyncio.Future]] = deque()
        self._running: asyncio.Task | None = None  # the drain task, only while there is mail

    # -- mailbox ----------------------------------------------------------------------
    def enqueue(self, item: MessageEnvelope | str) -> asyncio.Future:
        """Synchronous, so arrival order is the order callers reach this line."""
        fut = asyncio.get_running_loop().create_future()
        self._mailbox.append((item, fut))
        if isinstance(item, MessageEnvelope):
            self.last_active = self.rt.clock()
        if self._running is None:
            self._running = asyncio.get_running_loop().create_task(self._drain())
        return fut

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        return await asyncio.shield(self.enqueue(envelope))

    async def deactivate(self) -> None:
        """End the interaction now: refresh personContext, release the lease."""
        await asyncio.shield(self.enqueue(_STOP))

    def post_idle_check(self) -> None:
        """The host's sweeper found us idle; deactivate in mailbox order."""
        self.enqueue(_IDLE)

    async def _drain(self) -> None:
        try:
            while self._mailbox:
                item, fut = self._mailbox.popleft()
                try:
                    result = await (self._turn(item) if isinstance(item, MessageEnvelope) else self._stop(item))
                except Exception as exc:  # noqa: BLE001 - the submitter gets it, the mailbox goes on
                    if not fut.done():
                        fut.set_exception(exc)
                else:
                    if not fut.done():
                        fut.set_result(result)
        finally:
            self._running = None
            if self.lease is None and not self._mailbox:
                self.rt.on_cold(self)

    # -- state ------------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.lease is not None

    @property
    def busy(self) -> bool:
        return self._running is not None

    def idle_for(self, now: float) -> float:
        return 0.0 if self._running is not None else now - self.last_active

    def info(self) -> ActorInfo:
        return ActorInfo(key=self.key, person_id=self.person_id, host=self.rt.host_id,
                         activated_at=_at(self.activated_at), last_active=_at(self.last_active),
                         turns=self.turns, roles=[str(r.role_type) for r in self.roles],
                         lease_epoch=self.lease.epoch if self.lease else 0, queued=len(self._mailbox))

    # -- activation and ownership ---------------------------------------------------------
    async def activate(self, person_id: str | None, property_id: str) -> None:
        """Take the owner lease, then warm roles and personContext from the store."""
        try:
            self.lease = await self.rt.leases.acquire(self.key)
        except LeaseHeld as held:
            raise Moved(self.key, held.owner) from held
        self.activated_at = self.last_active = self.rt.clock()
        self.turns = 0
        self.transcript.clear()
        self.person_id = None
        await self._warm(person_id, property_id)

    async def _warm(self, person_id: str | None, property_id: str) -> None:
        spine = self.rt.deps.spine
        if person_id is None:
            roles, context = [], None
        else:
            roles, context = await asyncio.gather(resolve_active_roles(spine, person_id, property_id),
                                                  spine.get_context(person_id))
        self.person_id, self.property_id, self.roles, self.context = person_id, property_id, roles, context

    async def renew_if_due(self) -> None:
        """Keep the lease for as long as we may stay warm: checked at each turn and by the host's
        sweeper during long turns; a lease that lapsed and was taken elsewhere drops our warm state."""
        lease = self.lease
        if lease is None or lease.remaining(self.rt.clock()) >= self.rt.renew_below_s:
            return
        try:
            self.lease = await self.rt.leases.renew(lease)
        except LeaseLost:
            log.warning("lease on %s moved away from %s; rehydrating", self.key, self.rt.host_id)
            self._forget_warm()

    async def _own(self, envelope: MessageEnvelope) -> None:
        await self.renew_if_due()
        person_id = envelope.participant_id or self.person_id
        if self.lease is None:
            await self.activate(person_id, envelope.property_id)
        elif (person_id, envelope.property_id) != (self.person_id, self.property_id):
            await self._warm(person_id, envelope.property_id)

    def _forget_warm(self) -> None:
        self.lease, self.roles, self.context = None, [], None
        self.transcript.clear()

    # -- one turn -----------------------------------------------------------------------
    async def _turn(self, envelope: MessageEnvelope) -> TurnResult:
        await self._own(envelope)
        # None for admin 'Ask Clara' and tests, which submit without an inbound record
        inbound = await self.rt.deps.spine.get_inbound(envelope.message_id)
        result = await self._replayed(envelope, inbound)
        if result is None:
            try:
                result = await self.rt.turn(self.rt.deps, envelope, list(self.transcript))
            except Exception as exc:
                await self._record(envelope, inbound, InboundStatus.FAILED, failure=f"{type(exc).__name__}: {exc}"[:500])
                raise
            status = InboundStatus.IGNORED if result.suppressed else InboundStatus.ANSWERED
            reply = "" if result.suppressed else result.reply.strip()
            result.inbound_recorded = await self._record(envelope, inbound, status, reply=reply)
        self._remember(envelope, result)
        return result

    def _remember(self, envelope: MessageEnvelope, result: TurnResult) -> None:
        self.turns += 1
        self.last_active = self.rt.clock()
        self.last_interaction_id = result.interaction_id
        if result.person_id and result.person_id != self.person_id:
            self.person_id = result.person_id
            self.property_id = None  # re-warm roles for the minted or resolved person next turn
        if result.reply and not result.suppressed:
            cap = self.rt.transcript_chars
            self.transcript.append({"role": "user", "content": envelope.body[:cap]})
            self.transcript.append({"role": "assistant", "content": result.reply[:cap]})

    async def _replayed(self, envelope: MessageEnvelope, inbound: InboundMessage | None) -> TurnResult | None:
        """A retried message (host restart, redelivery) that was already answered gets the same
        answer back instead of a second turn."""
        if inbound is None or inbound.status != InboundStatus.ANSWERED or inbound.interaction_id != envelope.interaction_id:
            return None
        trace = await self.rt.deps.spine.get_trace(envelope.interaction_id)
        if trace is None:
            return None
        return TurnResult(interaction_id=envelope.interaction_id, person_id=trace.participant_id,
                          reply=inbound.reply or "", trace=trace, inbound_recorded=True)

    async def _record(self, envelope: MessageEnvelope, inbound: InboundMessage | None, status: InboundStatus, *,
                      reply: str | None = None, failure: str | None = None) -> bool:
        """The inbound log is the durable record that an accepted message ended answered or
        failed. True once written; the gateway writes it itself otherwise."""
        if inbound is None:
            return False
        try:
            await self.rt.deps.spine.update_inbound(inbound.model_copy(update={
                "status": status, "reply": reply, "failure": failure, "interaction_id": envelope.interaction_id}))
            return True
        except Exception as exc:  # noqa: BLE001 - the reply matters more than its bookkeeping
            log.error("could not record inbound %s as %s: %s", envelope.message_id, status, exc)
            return False

    # -- deactivation ---------------------------------------------------------------------
    async def _stop(self, marker: str) -> None:
        if self.lease is None or (marker == _IDLE and self._mailbox):
            return  # already cold, or mail arrived behind the idle check: still in conversation
        if marker == _IDLE and self.rt.clock() - self.last_active < self.rt.idle_deactivate_s:
            return
        try:
            self.lease = await self.rt.leases.renew(self.lease)  # still ours? else not ours to refresh
        except LeaseLost:
            self._forget_warm()
            return
        if self.person_id and self.last_interaction_id and self.turns:
            try:
                await self.rt.refresh(self.rt.deps.spine, self.rt.deps.model, self.person_id,
                                      self.last_interaction_id, list(self.transcript))
            except Exception as exc:  # noqa: BLE001 - refresh is best effort and idempotent
                log.error("personContext refresh for %s failed: %s", self.person_id, exc)
        lease, self.lease = self.lease, None
        self._forget_warm()
        try:
            await self.rt.leases.release(lease)
        except Exception as exc:  # noqa: BLE001 - an unreleased lease just expires
            log.error("could not release lease on %s: %s", self.key, exc)
