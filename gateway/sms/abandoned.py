"""Abandoned inbounds: accepted, then the replica holding the turn died before recording its end.

Every inbound is accepted (written) before its turn runs, and ends answered, ignored or failed.
One left `accepted` long past any turn's budget was abandoned: its replica crashed or was
redeployed mid-turn, and the sender heard nothing. Each replica sweeps now and then, and for
each abandoned message
  * ends it as its reply row says, when a reply (or the apology) is already in the outbox under
    the message's reply key: it was queued before its end was recorded (a store outage outlasted
    the write behind), and the outbox sends it; nothing is sent again, or else
  * ends it answered and sends the turn's reply, when the turn's trace shows the turn did end:
    the replica died after the turn but before ending the record, and no reply row means the reply
    never left (an SMS's TwiML answer leaves only after that write, a REST or API reply is queued
    before it); it goes
    under the key the replica would have sent it with, so a reply that did leave is not sent again
    (bench/chaos.py: a replica killed mid-turn left these unanswered while on record as answered), or
  * records it failed, emits `gateway/inbound-failed` (reason `abandoned`) and texts the sender
    the apology through the outbox and the REST API (blocked if they have opted out since).
Clara never goes silent on a message she accepted.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any, Protocol

import spine.keys as keys
from gateway.channel_inbound import APOLOGY
from gateway.inbound_log import InboundLog
from gateway.sms.delivery import Delivery
from spine.context import Channel
from spine.events import emit_event
from spine.identity import utcnow
from spine.records import EventKind, InboundMessage, InboundStatus
from spine.repo import Spine

log = logging.getLogger("clara.sms")


class ApologySender(Protocol):
    async def send(self, *, key: str, to: str, from_: str, body: str) -> Any: ...


def reply_key(record: InboundMessage) -> str:
    """The key a replica sends this message's reply under: an SMS's late reply by its
    MessageSid (gateway.sms.handler), an email's or Telegram message's as keys.reply_delivery."""
    return record.id if record.channel == Channel.SMS else keys.reply_delivery(record.id)


def first_reply_row(record: InboundMessage) -> str:
    """The outbox row of the first part of this message's reply (or apology), as its channel's
    sender writes it: an email is one row, an SMS or Telegram reply one row per part."""
    key = reply_key(record)
    return key if record.channel == Channel.EMAIL else keys.reply_part(key, 0)


class AbandonedInboundSweep:
    def __init__(self, spine: Spine, deliveries: Delivery | Mapping[Channel, ApologySender], *,
                 abandoned_after_s: float, every_s: float, clock: Callable[[], datetime] = utcnow) -> None:
        # One sender per channel (SMS, email, Telegram): the apology goes back the way the message came.
        self.spine = spine
        self.deliveries = deliveries if isinstance(deliveries, Mapping) else {Channel.SMS: deliveries}
        self.log = InboundLog(spine)
        self.abandoned_after = timedelta(seconds=abandoned_after_s)
        self.every_s = every_s
        self.clock = clock

    async def run(self) -> None:
        """Sweep every `every_s` until cancelled; a failing sweep is logged and tried again."""
        while True:
            await asyncio.sleep(self.every_s)
            try:
                await self.sweep_once()
            except Exception:
                log.exception("abandoned-inbound sweep failed; next in %.0f s", self.every_s)

    async def sweep_once(self) -> list[InboundMessage]:
        """Settle the abandoned inbounds (oldest first); returns those this sweep settled."""
        cutoff = self.clock() - self.abandoned_after
        settled = []
        for record in await self.spine.inbound_with_status(InboundStatus.ACCEPTED):
            if record.received_at > cutoff:
                break  # this one and every later one may still be in its turn
            try:
                settled.append(await self._settle(record))
            except Exception:  # still `accepted`, so the next sweep tries it again
                log.exception("abandoned inbound %s not settled", record.id)
        return settled

    async def _settle(self, record: InboundMessage) -> InboundMessage:
        """Record first (the same write from any replica), then the side effects, which exactly
        one replica claims (`mark_once`): a store failure before the claim leaves the message
        `accepted` for the next sweep, never claimed and unsent."""
        queued = await self.spine.get_outbox(first_reply_row(record))
        if queued is not None:  # its reply (or apology) reached the outbox before the record could say so
            record = await (self.log.failed(record, "the turn failed; its apology was queued")
                            if queued.body == APOLOGY else self.log.answered(record, queued.body))
            if await self.spine.mark_once(keys.inbound_abandoned_marker(record.id)):
                await self._event(EventKind.INBOUND_REPAIRED, "reply_queued_unrecorded", record)
            return record
        # A turn writes its trace as it ends, so a trace means the turn ended.
        trace = await self.spine.get_trace(record.interaction_id) if record.interaction_id else None
        if trace is not None:  # no reply: suppressed
            record = await (self.log.answered(record, trace.reply) if trace.reply else self.log.blocked(record))
            if await self.spine.mark_once(keys.inbound_abandoned_marker(record.id)):
                await self._event(EventKind.INBOUND_REPAIRED, "turn_ended_unrecorded", record)
                if trace.reply:
                    await self._send(record, reply_key(record), trace.reply)
            return record
        failure = f"abandoned: no turn ended within {self.abandoned_after.total_seconds():.0f} s of acceptance"
        record = await self.log.failed(record, failure)
        if await self.spine.mark_once(keys.inbound_abandoned_marker(record.id)):
            await self._event(EventKind.INBOUND_FAILED, "abandoned", record)
            await self._send(record, keys.apology_delivery(record.id), APOLOGY)
        return record

    async def _send(self, record: InboundMessage, key: str, body: str) -> None:
        delivery = self.deliveries.get(record.channel)
        if delivery is None:
            log.error("abandoned inbound %s: no sender for channel %s", record.id, record.channel)
            return
        await delivery.send(key=key, to=record.from_address, from_=record.to_address, body=body)

    async def _event(self, kind: EventKind, reason: str, record: InboundMessage) -> None:
        await emit_event(self.spine, kind, reason, channel=record.channel, address=record.from_address,
                         property_id=None, interaction_id=record.interaction_id,
                         detail={"message_sid": record.id, "received_at": record.received_at.isoformat()})
