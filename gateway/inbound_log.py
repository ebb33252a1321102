"""The inbound record of a channel adapter whose replies leave by API (email, Telegram): accept
before anything runs (create-if-absent on the provider's id, so a redelivery never runs a second
turn), then end every accepted message answered, ignored or failed, and emit events that never
take the reply down."""
from __future__ import annotations

import logging

from actors.turn_types import TurnResult
from gateway.sms.handler import APOLOGY
from spine.context import Channel
from spine.events import emit_event, mask_phones
from spine.records import InboundMessage, InboundStatus
from spine.repo import Spine

log = logging.getLogger("clara.gateway")

INBOUND_FAILED = "gateway/inbound-failed"  # the SMS adapter's kind, shared by every channel


class StoreUnavailable(Exception):
    """The store could not record the inbound: nothing was accepted, the provider should retry."""


class InboundLog:
    def __init__(self, spine: Spine, channel: Channel) -> None:
        self.spine, self.channel = spine, channel

    async def accept(self, record: InboundMessage) -> bool:
        """True for a new message, False for a redelivery; StoreUnavailable if nothing was written."""
        try:
            return await self.spine.accept_inbound(record)
        except Exception as exc:
            raise StoreUnavailable(f"{type(exc).__name__}: {exc}") from exc

    async def finish(self, record: InboundMessage, status: InboundStatus, reply: str = "", *,
                     turn_ran: bool = False) -> None:
        """Record how the message ended; `turn_ran=False` clears the reserved interaction id."""
        record.status, record.reply = status, reply
        if not turn_ran:
            record.interaction_id = None
        await self.spine.update_inbound(record)

    async def turn_ended(self, record: InboundMessage, result: TurnResult | None,
                         error: BaseException | None) -> str | None:
        """Record how a turn ended; the text to send: its reply, the apology when it failed,
        None when the reply is suppressed (spam)."""
        try:
            if error is not None:
                raise error
            if result.suppressed:
                await self.finish(record, InboundStatus.IGNORED, turn_ran=True)
                return None
            reply = result.reply.strip()
            if not reply:
                raise RuntimeError("the turn ended without a reply")
            if not result.inbound_recorded:  # the PersonActor records it when it can
                await self.finish(record, InboundStatus.ANSWERED, reply, turn_ran=True)
            record.status, record.reply = InboundStatus.ANSWERED, reply
            return reply
        except Exception as exc:
            log.exception("%s %s: the turn failed", self.channel, record.id)
            await self.fail(record, exc)
            return APOLOGY

    async def fail(self, record: InboundMessage, exc: BaseException) -> None:
        record.status = InboundStatus.FAILED
        record.failure = mask_phones(f"{type(exc).__name__}: {exc}")[:500]
        try:
            await self.spine.update_inbound(record)
        except Exception:
            log.exception("%s %s: the failure could not be recorded", self.channel, record.id)
        await self.emit(INBOUND_FAILED, type(exc).__name__, record.from_address, None, record.interaction_id,
                        {"message_id": record.id, "failure": record.failure})

    async def emit(self, kind: str, reason: str, address: str, property_id: str | None,
                   interaction_id: str | None, detail: dict) -> None:
        try:
            await emit_event(self.spine, kind, reason, channel=self.channel, address=address,
                             property_id=property_id, interaction_id=interaction_id, detail=detail)
        except Exception:  # observability never takes the reply down
            log.exception("event %s/%s could not be emitted", kind, reason)
