"""The inbound record of every channel, written through the one writer of the inbound log
(gateway.inbound_log.InboundLog): accepted before anything runs (create-if-absent on the
provider's id, so a redelivery never runs a second turn), then ended once, answered, blocked or
failed. Adds what the adapters share: a failure is recorded (masked) and evented the same way on
every channel, and events never take the reply down. For the channels whose replies leave by API
(email, Telegram) also: a store that cannot accept is InboundNotAccepted (the route answers 503, so
the provider retries), `handle_once` runs a message once and apologises when it fails, and the end
of a turn decides the text to send and queues it before the record says how it ended
(`turn_ended`), so a reply is never on record as sent while it never reached the outbox. SMS
accepts its own way (TwiML inline, a store that cannot accept still answers) but ends its turns
here too, with `Delivery.may_send` checked at the end."""
from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Protocol, TypeVar

from pydantic import BaseModel

from actors.protocol.turn import TurnResult
from gateway.errors import InboundNotAccepted
from gateway.inbound_log import InboundLog
from gateway.write_behind import WriteBehind
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.events import emit_event
from spine.masking import mask_phones
from spine.records import EventKind, InboundMessage, InboundStatus
from spine.repo import Spine

log = logging.getLogger("clara.gateway")
Result = TypeVar("Result")
Send = Callable[[str], Awaitable[object]]  # queues one text to the sender through the outbox, by its key

APOLOGY = "Sorry — I hit a problem. A team member will follow up."
INTERACTION_HEADER = "X-Clara-Interaction-Id"  # on every webhook answer: operators and the demo find the trace


def new_interaction_id() -> str:
    return f"ix_{uuid.uuid4().hex}"


class TurnSubmitter(Protocol):
    """What a channel needs of the actor runtime (actors.client.pool.HostPool provides it)."""

    async def submit(self, envelope: MessageEnvelope) -> TurnResult: ...


class InboundOutcome(StrEnum):
    """How an inbound message ended, as its webhook answers it (`outcome`): one vocabulary for
    every channel; some members occur on one channel only (named beside them)."""

    ANSWERED = "answered"
    DEFERRED = "deferred"  # the turn missed the inline budget; the reply follows by API
    DUPLICATE = "duplicate"
    LINKED = "linked"  # Telegram: a shared contact linked the user
    NOT_LINKED = "not_linked"
    OPTED_OUT = "opted_out"
    OPTED_IN = "opted_in"
    HELP = "help"  # SMS: the HELP keyword
    SENDER_OPTED_OUT = "blocked"  # the sender opted out: nothing may be sent to them
    UNKNOWN_NUMBER = "unknown_number"  # SMS
    IGNORED = "ignored"  # Telegram: not a person writing to the bot 1:1
    SPAM = "suppressed"  # the sender is spam: recorded, not answered
    HELD = "held"  # a staff member has the conversation: recorded and told to them, Clara silent
    FAILED = "failed"
    ACKNOWLEDGED = "acknowledged"  # SMS: an on-call page's ACK (gateway.sms.ack), answered without a turn
    DISPATCH_ANSWERED = "dispatch_answered"  # SMS: a vendor's YES/NO to a dispatch (gateway.sms.dispatch_reply)
    FOLLOWUP_ANSWERED = "followup_answered"  # a rating or "not fixed" to a close-out (desk.followups.answers)


class InboundResult(BaseModel):
    """The JSON an email or Telegram webhook answers with (each channel adds its own fields)."""

    reply: str | None = None  # what Clara answered, when the turn ended within the webhook
    outcome: InboundOutcome
    interaction_id: str | None = None


def turn_outcome(record: InboundMessage) -> InboundOutcome:
    """The outcome of a turn that ended within the webhook, read from how it ended the record."""
    return {InboundStatus.ANSWERED: InboundOutcome.ANSWERED, InboundStatus.HELD: InboundOutcome.HELD,
            InboundStatus.BLOCKED: InboundOutcome.SPAM}.get(record.status, InboundOutcome.FAILED)


class ChannelInbound:
    def __init__(self, spine: Spine, channel: Channel, *, id_detail: str = "message_id") -> None:
        """`id_detail`: the name events give the provider's id (SMS says message_sid, as Twilio does)."""
        self.spine, self.channel, self.id_detail = spine, channel, id_detail
        self.behind = WriteBehind()
        self.records = InboundLog(spine, self.behind)

    async def accept(self, record: InboundMessage) -> bool:
        """True for a new message, False for a redelivery; InboundNotAccepted if nothing was written."""
        try:
            return await self.records.accept(record)
        except Exception as exc:
            raise InboundNotAccepted(f"{type(exc).__name__}: {exc}") from exc

    async def handle_once(self, record: InboundMessage, process: Callable[[], Awaitable[Result]], *,
                          apologise: Callable[[str], Awaitable[None]],
                          ended: Callable[[InboundOutcome, str | None], Result]) -> Result:
        """Accept `record` and `process` it, once: a redelivery ends DUPLICATE (with the first
        delivery's interaction id); a failure is recorded, the sender gets the apology
        (`apologise`), and it ends FAILED, never a 500 at the provider. `ended` builds the
        channel's result. InboundNotAccepted when nothing could be accepted."""
        if not await self.accept(record):
            first = await self.records.get(record.id)
            return ended(InboundOutcome.DUPLICATE, first.interaction_id if first else None)
        try:
            return await process()
        except Exception as exc:
            log.exception("%s %s failed", self.channel, record.id)
            await self.fail(record, exc, apologise)
            return ended(InboundOutcome.FAILED, record.interaction_id)

    async def answered(self, record: InboundMessage, reply: str, send: Send | None = None) -> None:
        """`send`: the reply leaves by API; it is queued (in the outbox) before the record says
        answered, in one write that outlasts a store refusing it for a moment (WriteBehind)."""
        first = (lambda: send(reply)) if send is not None else None
        _copy_end(record, await self.records.answered(record, reply, first=first))

    async def blocked(self, record: InboundMessage, reply: str | None = None) -> None:
        _copy_end(record, await self.records.blocked(record, reply))

    async def held(self, record: InboundMessage) -> None:
        _copy_end(record, await self.records.held(record))

    async def fail(self, record: InboundMessage, exc: BaseException, send: Send | None = None) -> None:
        """`send`: the apology leaves by API, queued before the record says failed."""
        failure = mask_phones(f"{type(exc).__name__}: {exc}")
        first = (lambda: send(APOLOGY)) if send is not None else None
        try:
            _copy_end(record, await self.records.failed(record, failure, first=first))
        except Exception:
            log.exception("%s %s: the failure could not be recorded", self.channel, record.id)
        await self.emit(EventKind.INBOUND_FAILED, type(exc).__name__, record.from_address, None, record.interaction_id,
                        {self.id_detail: record.id, "failure": failure[:500]})

    async def turn_ended(self, record: InboundMessage, result: TurnResult | None,
                         error: BaseException | None, *, send: Send | None = None,
                         may_send: Callable[[], Awaitable[bool]] | None = None) -> str | None:
        """Record how a turn ended; the text for the sender: its reply, the apology when it
        failed, None when the reply is suppressed (spam) or `may_send` refuses it now (SMS: a
        STOP that arrived during the turn blocks the answer, which is kept on the record, never
        sent). `send`: that text leaves by API, queued before the record is ended (`answered`)."""
        try:
            if error is not None:
                raise error
            assert result is not None  # a turn that raised nothing has its result
            if result.suppressed:  # held by a takeover (staff answer), or spam: nothing is sent
                await (self.held(record) if result.held else self.blocked(record))
                return None
            reply = result.reply.strip()
            if not reply:
                raise RuntimeError("the turn ended without a reply")
            if may_send is not None and not await may_send():
                await self.blocked(record, reply)
                return None
            await self.answered(record, reply, send)
            return reply
        except Exception as exc:
            log.exception("%s %s: the turn failed", self.channel, record.id)
            await self.fail(record, exc, send)
            return APOLOGY

    async def emit(self, kind: EventKind, reason: str, address: str, property_id: str | None,
                   interaction_id: str | None, detail: dict) -> None:
        try:
            await emit_event(self.spine, kind, reason, channel=self.channel, address=address,
                             property_id=property_id, interaction_id=interaction_id, detail=detail)
        except Exception:  # observability never takes the reply down
            log.exception("event %s/%s could not be emitted", kind, reason)


def _copy_end(record: InboundMessage, ended: InboundMessage) -> None:
    """The handler's own copy of the record takes the end the inbound log wrote."""
    record.status, record.reply, record.failure = ended.status, ended.reply, ended.failure
