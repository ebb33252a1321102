"""Spine methods of the interaction records: the inbound log, the outbox, opt-outs, events and
agent traces. A mixin of `Spine` (spine/repo/__init__.py), kept apart so the repository module stays small;
it reads and writes through RepoBase (spine/repo/base.py)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import spine.keys as keys
from spine.context import Channel
from spine.identity import utcnow
from spine.records import (
    AgentTrace,
    Event,
    InboundMessage,
    InboundStatus,
    LastContact,
    OptOut,
    OutboxMessage,
    OutboxStatus,
    channel_of_address,
)
from spine.repo.base import CAS_TRIES, RepoBase
from spine.store.base import ABSENT, ConditionFailed, Item

SEEN_MARKS_KEPT = 50_000  # markers a Spine remembers seeing (a few MB at most)


class InteractionRecords(RepoBase):
    # -- inbound log, outbox, opt-outs --------------------------------------------------
    # Indexed by status, oldest first: the `accepted` partition holds only the messages whose
    # turn has not ended, which is what the abandoned-inbound sweep reads.
    async def accept_inbound(self, message: InboundMessage) -> bool:
        """Record an inbound once; False when this provider id was already accepted (redelivery)."""
        return await self._create(message, keys.inbound(message.id), gsi1pk=keys.inbound_status(message.status),
                                  gsi1sk=message.received_at.isoformat())

    async def update_inbound(self, message: InboundMessage) -> None:
        await self._put(message, keys.inbound(message.id), gsi1pk=keys.inbound_status(message.status),
                        gsi1sk=message.received_at.isoformat())

    async def inbound_with_status(self, status: InboundStatus, *, limit: int = 100) -> list[InboundMessage]:
        """Oldest first."""
        return await self._index(InboundMessage, keys.inbound_status(status), limit=limit)

    async def get_inbound(self, message_id: str) -> InboundMessage | None:
        return await self._get(InboundMessage, keys.inbound(message_id))

    async def put_outbox(self, message: OutboxMessage) -> None:
        await self._put(message, keys.outbox(message.id), gsi1pk=keys.outbox_status(message.status),
                        gsi1sk=keys.outbox_position(message.due_at.isoformat(), message.id))

    async def create_outbox(self, message: OutboxMessage) -> bool:
        """Write a row only if no row has its id (the same key queues once); False when one has."""
        return await self._create(message, keys.outbox(message.id), gsi1pk=keys.outbox_status(message.status),
                                  gsi1sk=keys.outbox_position(message.due_at.isoformat(), message.id))

    async def replace_pending_outbox(self, message: OutboxMessage) -> bool:
        """Overwrite the row with `message` only while it is still PENDING, on compare-and-set, so a
        sender that took it in the meantime is never overwritten (and nothing goes out twice)."""
        item = await self.store.get(keys.outbox(message.id))
        if item is None or item.data.get("status") != OutboxStatus.PENDING:
            return False
        return await self._replace(Item(pk=item.pk, sk=item.sk, data=message.model_dump(mode="json"),
                                        gsi1pk=keys.outbox_status(message.status),
                                        gsi1sk=keys.outbox_position(message.due_at.isoformat(), message.id)), item.version)

    async def outbox(self, status: OutboxStatus = OutboxStatus.PENDING, limit: int = 100) -> list[OutboxMessage]:
        """Oldest first (by when each row may leave, see OutboxMessage.due_at)."""
        return await self._index(OutboxMessage, keys.outbox_status(status), limit=limit)

    async def get_outbox(self, outbox_id: str) -> OutboxMessage | None:
        return await self._get(OutboxMessage, keys.outbox(outbox_id))

    async def link_outbox_provider_id(self, provider_id: str, outbox_id: str) -> None:
        """Remember which outbox row a provider message id (Twilio's SM... sid) belongs to,
        so delivery status callbacks can find it."""
        await self.store.put(Item(pk=keys.outbox_provider_id(provider_id), data={"outbox_id": outbox_id}))

    async def outbox_by_provider_id(self, provider_id: str) -> OutboxMessage | None:
        item = await self.store.get(keys.outbox_provider_id(provider_id))
        return await self.get_outbox(item.data["outbox_id"]) if item else None

    async def is_marked(self, key: str) -> bool:
        """Whether `mark_once(key)` has happened (read-only; a marker this Spine saw costs no read)."""
        if key in self.seen_marks:
            return True
        marked = await self.store.get(keys.once(key)) is not None
        if marked:
            self.saw_mark(key)
        return marked

    def saw_mark(self, key: str) -> None:
        if len(self.seen_marks) >= SEEN_MARKS_KEPT:
            self.seen_marks.clear()  # a rare full reset beats LRU bookkeeping: a miss is one read
        self.seen_marks.add(key)

    async def bind_once(self, key: str, value: str) -> str:
        """A create-if-absent marker that holds `value`: the value it holds after the call, so
        `value` the first time and the first caller's value on every later call (a marker made
        by `mark_once` holds "")."""
        if await self._replace(Item(pk=keys.once(key), data={"at": utcnow().isoformat(), "value": value}), ABSENT):
            return value
        item = await self.store.get(keys.once(key))
        return str(item.data.get("value", "")) if item else ""

    async def set_opt_out(self, opt: OptOut) -> None:
        assert opt.channel is not None  # OptOut fills it in from the address
        await self._put(opt, keys.opt_out(opt.channel, opt.address))

    async def is_opted_out(self, address: str, channel: Channel | None = None, *, reply: bool = False) -> bool:
        """Opted out on `channel` (by default the address's own): STOP by SMS does not silence email.
        A `reply` (to what the person wrote) ignores an opt-out a PMS recorded (OptOut.source)."""
        opt = await self.opt_out_of(address, channel)
        return bool(opt and opt.opted_out and not (reply and opt.source))

    async def opt_out_of(self, address: str, channel: Channel | None = None) -> OptOut | None:
        channel = channel or channel_of_address(address)
        opt = await self._get(OptOut, keys.opt_out(channel, address))
        if opt is None and channel == channel_of_address(address):
            opt = await self._get(OptOut, keys.legacy_opt_out(address))
        return opt

    async def note_last_contact(self, contact: LastContact) -> None:
        await self._put(contact, keys.person(contact.person_id), keys.LAST_CONTACT)

    async def last_contact(self, person_id: str) -> LastContact | None:
        return await self._get(LastContact, keys.person(person_id), keys.LAST_CONTACT)

    # -- events and traces --------------------------------------------------------------
    async def put_event(self, event: Event) -> None:
        await self._put(event, keys.event(event.id), gsi1pk=keys.events_of_kind(event.kind),
                        gsi1sk=keys.event_position(event.at.isoformat(), event.id))

    async def events(self, kind: str, *, limit: int = 100, since: datetime | None = None) -> list[Event]:
        found = await self._index(Event, keys.events_of_kind(kind), limit=limit, descending=True)
        return [e for e in found if since is None or e.at >= since]

    async def put_trace(self, trace: AgentTrace) -> None:
        await self._put(trace, keys.trace(trace.interaction_id), gsi1pk=keys.TRACES,
                        gsi1sk=keys.trace_position(trace.started_at.isoformat(), trace.interaction_id))

    async def change_trace(self, interaction_id: str, change: Callable[[AgentTrace], bool]) -> AgentTrace | None:
        """Add to a trace by compare-and-set: `change` edits it in place and says whether it changed
        anything; again on a lost race (a call's trace is written by its tool webhooks, a transfer's
        TwiML routes and its end, each from any replica: a line one of them adds is never lost to
        another's stale copy). The trace as it then stands; None when there is none."""
        changed = await self._compare_and_set(
            AgentTrace, keys.trace(interaction_id), change=lambda found: found if found and change(found) else None)
        if changed.lost:
            raise ConditionFailed(f"trace {interaction_id} kept changing under {CAS_TRIES} tries")
        return changed.after or changed.before

    async def get_trace(self, interaction_id: str) -> AgentTrace | None:
        return await self._get(AgentTrace, keys.trace(interaction_id))

    async def recent_traces(self, limit: int = 50) -> list[AgentTrace]:
        return await self._index(AgentTrace, keys.TRACES, limit=limit, descending=True)
