"""The inbound log's one writer: every accepted message ends answered, blocked or failed.

Accepting is create-if-absent on the provider's id (Twilio MessageSid), so a redelivery is seen
as one and never runs a second turn. After that the record changes once, here: `answered` (with
the text that was, or is being, sent), `blocked` (nothing may be or was sent: a STOP, an opted-out
sender, spam, a number we do not serve) or `failed` (with the reason; the sender gets the apology).
Every channel's handler (through gateway.channel_inbound.ChannelInbound) ends the messages it
accepted; the abandoned-inbound sweep ends those whose replica died first. No other part of the
runtime (PersonActors, the pool) touches the record.
"""
from __future__ import annotations

from collections.abc import Awaitable, Callable

from gateway.write_behind import WriteBehind
from spine.records import InboundMessage, InboundStatus
from spine.repo import Spine

FINAL = frozenset({InboundStatus.ANSWERED, InboundStatus.BLOCKED, InboundStatus.HELD, InboundStatus.FAILED})


class InboundLog:
    def __init__(self, spine: Spine, behind: WriteBehind | None = None) -> None:
        """`behind`: an end the store refuses for a moment is retried in the background (the
        channels' handlers: their reply goes out meanwhile); without it the failure is raised
        (the abandoned-inbound sweep, which tries again on its next pass)."""
        self.spine, self.behind = spine, behind

    async def accept(self, record: InboundMessage) -> bool:
        """True if this is the first delivery of the message; False for a redelivery."""
        return await self.spine.accept_inbound(record)

    async def get(self, message_id: str) -> InboundMessage | None:
        return await self.spine.get_inbound(message_id)

    async def answered(self, record: InboundMessage, reply: str, *,
                       first: Callable[[], Awaitable[object]] | None = None) -> InboundMessage:
        """`first`: what must land before the record says answered (the reply's outbox row),
        so a reply that never got into the outbox leaves the message `accepted`, for the
        abandoned-inbound sweep to send, never answered and unsent."""
        return await self._end(record, InboundStatus.ANSWERED, reply=reply, first=first)

    async def blocked(self, record: InboundMessage, reply: str | None = None) -> InboundMessage:
        """Nothing is sent. `reply`: what Clara would have said (kept for the operator, never sent)."""
        return await self._end(record, InboundStatus.BLOCKED, reply=reply)

    async def held(self, record: InboundMessage) -> InboundMessage:
        """A takeover held it: staff have the conversation, Clara sends nothing (not spam, not blocked)."""
        return await self._end(record, InboundStatus.HELD)

    async def failed(self, record: InboundMessage, failure: str, *,
                     first: Callable[[], Awaitable[object]] | None = None) -> InboundMessage:
        """`first`: as for `answered` (the apology's outbox row)."""
        return await self._end(record, InboundStatus.FAILED, failure=failure[:500], first=first)

    async def _end(self, record: InboundMessage, status: InboundStatus, *, reply: str | None = None,
                   failure: str | None = None, first: Callable[[], Awaitable[object]] | None = None) -> InboundMessage:
        if status not in FINAL:
            raise ValueError(f"an inbound ends answered, blocked, held or failed, not {status}")
        ended = record.model_copy(update={"status": status, "reply": reply, "failure": failure})

        async def write() -> None:
            if first is not None:  # idempotent (an outbox row by its key): a retry may run it again
                await first()
            await self.spine.update_inbound(ended)

        if self.behind is None:
            await write()
        else:
            await self.behind.write(f"inbound {record.id} {status}", record.received_at, write)
        return ended
