"""PersonActor: a virtual actor for one active participant (ARCHITECTURE decision 1).

Not a Ray actor: a small object, many to a host process, with its own mailbox. Its turns run one
at a time in arrival order; different persons run in parallel on the host's event loop. It
activates on its first message: takes the owner lease (named by the Person, `person:<id>`), takes
a conversation handed to it (actors.host.handoff) and opens the interaction's Opening (actors.turn.opening),
which it holds warm and hands to every turn. It deactivates when idle: that is the end of the
interaction, which refreshes the personContext and releases the lease. An unknown caller's actor
is keyed by their channel address; once they resolve to a Person it hands the conversation over
and answers `Moved` with the Person's key. When idle it holds no task, only a few small fields.
"""
from __future__ import annotations

import asyncio
import logging
from collections import deque
from enum import Enum
from functools import partial
from typing import Any

import actors.host.conversation_log as conversation_log
import actors.host.takeover_turns as takeover_turns
import actors.metrics as metrics
from actors.host.handoff import hand_off, take_handoff
from actors.host.ownership import Ownership, OwnershipHeld, OwnershipLost
from actors.host.person_runtime import ActorInfo, Moved, PersonRuntime, at
from actors.host.person_session import run_op
from actors.protocol.keys import claimed_person, person_key, person_of
from actors.protocol.session import SessionOp, SessionReply
from actors.protocol.turn import TurnDeps, TurnResult
from actors.turn.opening import Opening, open_for, refreshed
from actors.turn.turn_start import lookups_with_authority
from spine.envelope import MessageEnvelope
from spine.identity import utcnow
from spine.participants import BrokenMergeChain, follow_merges
from spine.records import TranscriptEntry
from spine.store.counting import ReadCount

__all__ = ["ActorInfo", "Moved", "PersonActor", "PersonRuntime"]  # where hosts, the pool and tests import them

log = logging.getLogger("clara.person_actor")


class Control(Enum):
    """What a host posts to a PersonActor's mailbox besides messages and call ops."""

    IDLE_CHECK = "idle-check"  # deactivate, unless mail arrived behind it or the actor was active since
    DEACTIVATE = "deactivate"  # deactivate now (the host drains)


MailboxItem = MessageEnvelope | SessionOp | Control


class PersonActor:
    __slots__ = (
        "_mailbox",
        "_running",
        "activated_at",
        "key",
        "last_active",
        "last_interaction_id",
        "lease",
        "opening",
        "person_id",
        "rt",
        "transcript",
        "turns",
    )

    def __init__(self, key: str, runtime: PersonRuntime) -> None:
        self.key, self.rt = key, runtime
        self.person_id: str | None = person_of(key)
        self.opening: Opening | None = None
        self.transcript: deque[dict[str, str]] = deque(maxlen=2 * runtime.transcript_turns)
        self.lease: Ownership | None = None
        self.activated_at = self.last_active = runtime.clock()
        self.turns = 0
        self.last_interaction_id: str | None = None
        self._mailbox: deque[tuple[MailboxItem, asyncio.Future[Any]]] = deque()
        self._running: asyncio.Task[None] | None = None  # the drain task, only while there is mail

    # -- mailbox ----------------------------------------------------------------------
    def enqueue(self, item: MailboxItem) -> asyncio.Future[Any]:
        """Synchronous, so arrival order is the order callers reach this line."""
        fut = asyncio.get_running_loop().create_future()
        self._mailbox.append((item, fut))
        if not isinstance(item, Control):
            self.last_active = self.rt.clock()
        if self._running is None:
            self._running = asyncio.get_running_loop().create_task(self._drain())
        return fut

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        return await asyncio.shield(self.enqueue(envelope))

    async def call(self, op: SessionOp) -> SessionReply:
        """One op of a phone call (actors.host.person_session), in mailbox order with the texts."""
        return await asyncio.shield(self.enqueue(op))

    async def deactivate(self) -> None:
        """End the interaction now: refresh personContext, release the lease."""
        await asyncio.shield(self.enqueue(Control.DEACTIVATE))

    def post_idle_check(self) -> None:
        """The host's sweeper found us idle; deactivate in mailbox order."""
        self.enqueue(Control.IDLE_CHECK)

    async def _drain(self) -> None:
        try:
            while self._mailbox:
                item, fut = self._mailbox.popleft()
                try:
                    result = await self._handle(item)
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

    async def _handle(self, item: MailboxItem) -> TurnResult | SessionReply | None:
        if isinstance(item, MessageEnvelope):
            return await self._turn(item)
        if isinstance(item, Control):
            await self._stop(item)
            return None
        with ReadCount():
            await self._own(item.as_envelope())
            reply = await run_op(self, item)
        self.last_active = self.rt.clock()
        if self.person_id is None and reply.person_id:  # the call's caller was minted (or claimed): move over
            await self._leave(reply.person_id)
        return reply

    # -- state ------------------------------------------------------------------------
    @property
    def deps(self) -> TurnDeps:
        return self.rt.deps

    @property
    def active(self) -> bool:
        return self.lease is not None

    @property
    def busy(self) -> bool:
        return self._running is not None

    def idle_for(self, now: float) -> float:
        return 0.0 if self._running is not None else now - self.last_active

    def info(self) -> ActorInfo:
        roles = [str(r.role_type) for r in self.opening.roles] if self.opening else []
        return ActorInfo(key=self.key, person_id=self.person_id, host=self.rt.host_id,
                         activated_at=at(self.activated_at), last_active=at(self.last_active),
                         turns=self.turns, roles=roles, lease_epoch=self.lease.epoch if self.lease else 0,
                         queued=len(self._mailbox), exchanges=len(self.transcript) // 2)

    # -- activation and ownership ---------------------------------------------------------
    async def activate(self) -> None:
        """Take the owner lease and any conversation handed to this Person."""
        try:
            self.lease = await self.rt.ownerships.acquire(self.key)
        except OwnershipHeld as held:
            raise Moved(self.key, owner=held.owner) from held
        self.activated_at = self.last_active = self.rt.clock()
        self.turns = 0
        self.transcript.clear()
        self.opening = None
        if self.person_id is not None:
            self.transcript.extend(await take_handoff(self.rt.ownerships.store, self.key))

    async def renew_if_due(self) -> None:
        """Keep the lease for as long as we may stay warm: checked at each turn and by the host's
        sweeper during long turns; a lease that lapsed and was taken elsewhere drops our warm state."""
        lease = self.lease
        if lease is None or lease.remaining(self.rt.clock()) >= self.rt.renew_below_s:
            return
        try:
            self.lease = await self.rt.ownerships.renew(lease)
        except OwnershipLost:
            log.warning("lease on %s moved away from %s; rehydrating", self.key, self.rt.host_id)
            self._forget_warm()

    async def _own(self, envelope: MessageEnvelope) -> MessageEnvelope:
        """Be the owner of this message, with a current Opening; or Moved. The envelope as the
        turn takes it (for an address actor, with when its claim was last found absent)."""
        # An address actor: has the caller become a Person? Not for a sender the channel could
        # not authenticate (a forged email From): their address's claim is not theirs to use.
        # The Placer's read of a moment ago stands (MessageEnvelope.claim_absent); an older one is read again.
        if self.person_id is None and envelope.sender_verified and not envelope.claim_absent():
            claimed = await claimed_person(self.rt.deps.spine, envelope.channel, envelope.from_address)
            if claimed is not None:
                raise Moved(self.key, rekey=person_key(claimed))
            envelope = envelope.model_copy(update={"unclaimed_at": utcnow()})
        await self.renew_if_due()
        if self.lease is None:
            await self.activate()
        if self.person_id is not None:
            await self._open(envelope, self.person_id)
        return envelope

    async def _open(self, envelope: MessageEnvelope, person_id: str) -> None:
        deps, opening, now = self.rt.deps, self.opening, self.rt.clock()
        channel, address, iid = envelope.channel, envelope.from_address, envelope.interaction_id
        source = lookups_with_authority(deps, envelope, person_id, opening, now)
        authorities = source or deps.authority_source
        if opening is None or opening.property_id != envelope.property_id:
            opening = await open_for(deps.spine, authorities, person_id, envelope.property_id, now=now,
                                     channel=channel, address=address, interaction_id=iid)
        else:
            opening = await refreshed(deps.spine, authorities, opening, now=now, channel=channel, address=address,
                                      interaction_id=iid)
        if source is not None and source.asked:  # the turn's lookups came with the re-check
            opening.hand_lookups(iid, source.lookups)
        person = opening.person
        if person is not None and person.merged_into_person_id:
            try:
                survivor = await follow_merges(deps.spine, person)
            except BrokenMergeChain as exc:
                log.warning("cannot follow the merge of %s: %s", self.person_id, exc)
            else:
                await self._leave(survivor.id)
                raise Moved(self.key, rekey=person_key(survivor.id))
        self.opening = opening

    def _forget_warm(self) -> None:
        self.lease, self.opening = None, None
        self.transcript.clear()

    # -- one turn -----------------------------------------------------------------------
    async def _turn(self, envelope: MessageEnvelope) -> TurnResult:
        with ReadCount():  # the turn's trace records what it read, this preparation included
            envelope = await self._own(envelope)
            result = await self._replayed(envelope)
            if result is None:
                result = await self._answer(envelope)
        self._remember(envelope, result)
        if self.person_id is None and result.person_id:  # minted, or claimed meanwhile: move over
            await self._leave(result.person_id)
        return result

    async def _answer(self, envelope: MessageEnvelope) -> TurnResult:
        """Clara's turn, unless a staff member answers this person (actors.host.takeover_turns)."""
        if envelope.origin == "admin" or self.person_id is None:  # Ask Clara is no conversation of theirs
            result = await self._run_turn(envelope)
            if envelope.origin != "admin" and result.person_id:  # minted by this turn: it starts here
                await conversation_log.after_turn(self.rt.deps, envelope, result.person_id, None, result)
            return result
        return await takeover_turns.answer(self.rt.deps, envelope, self.person_id, self.opening, self.transcript,
                                           partial(self._run_turn, envelope))

    async def _run_turn(self, envelope: MessageEnvelope) -> TurnResult:
        result = await self.rt.turn(self.rt.deps, envelope, list(self.transcript), self.opening)
        metrics.record_turn(result.trace)
        return result

    def _remember(self, envelope: MessageEnvelope, result: TurnResult) -> None:
        self.turns += 1
        self.last_active = self.rt.clock()
        self.last_interaction_id = result.interaction_id
        if result.reply and not result.suppressed:
            cap = self.rt.transcript_chars
            self.transcript.append({"role": "user", "content": envelope.body[:cap]})
            self.transcript.append({"role": "assistant", "content": result.reply[:cap]})

    async def _leave(self, person_id: str) -> None:
        """Hand the conversation to `person_id`'s actor and go cold; the lease is released (its
        interaction ends there, so no refresh here)."""
        await hand_off(self.rt.ownerships.store, person_key(person_id), self.key, list(self.transcript))
        lease, self.lease = self.lease, None
        self._forget_warm()
        if lease is not None:
            await self._release(lease)

    async def _replayed(self, envelope: MessageEnvelope) -> TurnResult | None:
        """A retried message (host restart, redelivery) whose turn already ended (its trace is
        written as it ends) gets the same answer back instead of a second turn."""
        if envelope.origin == "admin":
            return None
        trace = await self.rt.deps.spine.get_trace(envelope.interaction_id)
        if trace is None:
            return None
        return TurnResult(interaction_id=envelope.interaction_id, person_id=trace.participant_id,
                          reply=trace.reply, suppressed=not trace.reply, trace=trace)

    # -- deactivation ---------------------------------------------------------------------
    async def _stop(self, control: Control) -> None:
        idle_check = control is Control.IDLE_CHECK
        if self.lease is None or (idle_check and self._mailbox):
            return  # already cold, or mail arrived behind the idle check: still in conversation
        if idle_check and self.rt.clock() - self.last_active < self.rt.idle_deactivate_s:
            return
        try:
            self.lease = await self.rt.ownerships.renew(self.lease)  # still ours? else not ours to refresh
        except OwnershipLost:
            self._forget_warm()
            return
        if self.last_interaction_id and self.turns:
            await self._refresh(self.last_interaction_id, TranscriptEntry.from_messages(self.transcript))
        lease, self.lease = self.lease, None
        self._forget_warm()
        await self._release(lease)

    async def end_interaction(self, interaction_id: str, said: list[TranscriptEntry]) -> bool:
        """A call ended, which ends the person's interaction: one refresh over the texts since the
        last one and the call; the next turn opens afresh (and reads the new summary)."""
        texts = TranscriptEntry.from_messages(self.transcript) if self.turns else []
        refreshed = await self._refresh(interaction_id, [*texts, *said])
        self.turns, self.last_interaction_id, self.opening = 0, None, None
        return refreshed

    async def _refresh(self, interaction_id: str, transcript: list[TranscriptEntry]) -> bool:
        if not self.person_id:
            return False
        try:
            return await self.rt.refresh(self.rt.deps.spine, self.rt.deps.model, self.person_id, interaction_id,
                                         transcript)
        except Exception as exc:  # noqa: BLE001 - refresh is best effort and idempotent
            log.error("personContext refresh for %s failed: %s", self.person_id, exc)
            return False

    async def _release(self, lease: Ownership) -> None:
        try:
            await self.rt.ownerships.release(lease)
        except Exception as exc:  # noqa: BLE001 - an unreleased lease just expires
            log.error("could not release lease on %s: %s", self.key, exc)
