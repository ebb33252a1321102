"""One outbox row through its provider, once: what the SMS, Telegram and email deliveries share.

The row is written before the provider is called (so nothing is lost), a row already handled is
never sent again (a retried reply names the same rows), a row is handed to the provider only by
whoever claims it first (`send_claimed`: the replica that wrote it or the outbox sweep, never both),
and the provider's answer, its message id or its failure, is written back. Without a provider the
row waits in the outbox, pending."""
from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import spine.keys as keys
from gateway.write_behind import WriteBehind
from spine.records import OutboxMessage, OutboxStatus, last4
from spine.repo import Spine

MAX_ERROR_CHARS = 500  # of a provider's failure, kept on the row
# The provider's answer, written back: once the provider was called, a store that refuses the
# row must not turn into an error (the caller would retry, and the part would go out twice).
_ANSWERS = WriteBehind()


async def deliver_once(spine: Spine, message: OutboxMessage, send: Callable[[OutboxMessage], Awaitable[str]] | None,
                       failure: type[Exception]) -> OutboxMessage:
    """`send` posts the row to the provider and answers its message id; `failure` is the
    provider's error (a row that failed so is kept FAILED, not raised)."""
    existing = await spine.get_outbox(message.id)
    if existing is not None and existing.status != OutboxStatus.PENDING:
        return existing  # already handled: never send the same part twice
    await spine.put_outbox(message)
    if send is None or message.status != OutboxStatus.PENDING:
        return message
    return await send_claimed(spine, message, send, failure)


async def send_claimed(spine: Spine, message: OutboxMessage, send: Callable[[OutboxMessage], Awaitable[str]],
                       failure: type[Exception]) -> OutboxMessage:
    """Send a PENDING row already in the outbox, if this caller is the first to claim it (a
    create-if-absent marker: a replica's reply and the outbox sweep never both send one row)."""
    if not await spine.mark_once(keys.outbox_send_marker(message.id)):
        return await spine.get_outbox(message.id) or message
    return await send_owned(spine, message, send, failure)


async def send_owned(spine: Spine, message: OutboxMessage, send: Callable[[OutboxMessage], Awaitable[str]],
                     failure: type[Exception]) -> OutboxMessage:
    """Send a row this caller has claimed (keys.outbox_send_marker) and write the answer back."""
    try:
        provider_id = await send(message)
    except failure as exc:
        logging.getLogger(f"clara.{message.channel}").warning(
            "%s send %s to …%s failed: %s", message.channel, message.id, last4(message.to_address), exc)
        message = message.model_copy(update={"status": OutboxStatus.FAILED, "error": str(exc)[:MAX_ERROR_CHARS]})
    else:
        message = message.model_copy(update={"status": OutboxStatus.SENT, "provider_id": provider_id})
    ended = message
    await _ANSWERS.write(f"outbox {message.id} {message.status}", message.created_at, lambda: spine.put_outbox(ended))
    return message
