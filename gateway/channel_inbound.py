"""The inbound record of a channel whose replies leave by API (email, Telegram), written through
the one writer of the inbound log (gateway.sms.inbound_log.InboundLog): accepted before anything
runs (create-if-absent on the provider's id, so a redelivery never runs a second turn), then
ended once, answered, blocked or failed. Adds what these adapters share: a store that cannot
accept is StoreUnavailable (the route answers 503, so the provider retries), the end of a turn
decides the text to send, and events never take the reply down."""
from __future__ import annotations

import logging

from actors.turn_types import TurnResult
from gateway.sms.handler import APOLOGY
from gateway.sms.inbound_log import InboundLog
from spine.context import Channel
from spine.events import emit_event, mask_phones
from spine.records import InboundMessage
from spine.repo import Spine

log = logging.getLogger("clara.gateway")

INBOUND_FAILED = "gateway/inbound-failed"  # the SMS adapter's kind, shared by every channel


class StoreUnavailable(Exception):
    """The store could not record the inbound: nothing was accepted, the provider should retry."""


class ChannelInbound:
    def __init__(self, spine: Spine, channel: Channel) -> None:
        self.spine, self.channel = spine, channel
        self.records = InboundLog(spine)

    async def accept(self, record: InboundMessage) -> bool:
        """True for a new message, False for a redelivery; StoreUnavailable if nothing was written."""
        try:
            return await self.records.accept(record)
        except Exception as exc:
            raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from exc

    # The ends keep `record` (the handler's own copy) in step with what was written.
    async def answered(self, record: InboundMessage, reply: str) -> None:
        _keep(record, await self.records.answered(record, reply))

    async def blocked(self, record: InboundMessage) -> None:
        _keep(record, await self.records.blocked(record))

    async def fail(self, record: InboundMessage, exc: BaseException) -> None:
        failure = mask_phones(f"{type(exc).__name__}: {exc}")
        try:
            _keep(record, await self.records.failed(record, failure))
        except Exception:
            log.exception("%s %s: the failure could not be recorded", self.channel, record.id)
        await self.emit(INBOUND_FAILED, type(exc).__name__, record.from_address, None, record.interaction_id,
                        {"message_id": record.id, "failure": failure[:500]})

    async def turn_ended(self, record: InboundMessage, result: TurnResult | None,
                         error: BaseException | None) -> str | None:
        """Record how a turn ended; the text to send: its reply, the apology when it failed,
        None when the reply is suppressed (spam)."""
        try:
            if error is not None:
                raise error
            assert result is not None  # a turn that raised nothing has its result
            if result.suppressed:
                await self.blocked(record)
                return None
            reply = result.reply.strip()
            if not reply:
                raise RuntimeError("the turn ended without a reply")
            await self.answered(record, reply)
            return reply
        except Exception as exc:
            log.exception("%s %s: the turn failed", self.channel, record.id)
            await self.fail(record, exc)
            return APOLOGY

    async def emit(self, kind: str, reason: str, address: str, property_id: str | None,
                   interaction_id: str | None, detail: dict) -> None:
        try:
            await emit_event(self.spine, kind, reason, channel=self.channel, address=address,
                             property_id=property_id, interaction_id=interaction_id, detail=detail)
        except Exception:  # observability never takes the reply down
            log.exception("event %s/%s could not be emitted", kind, reason)


def _keep(record: InboundMessage, ended: InboundMessage) -> None:
    record.status, record.reply, record.failure = ended.status, ended.reply, ended.failure
