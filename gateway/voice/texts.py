"""Texts a voice tool asks the channel to send during a call (the step-up's one-time code).

The tool queued the text through the one outbound check (desk.outbound.queue.queue_outbound: an SMS
opt-out, a person who may not be reached) into an outbox row that keeps the code masked
(`OutboundText.logged_body`), so operators see that a code went out and where, never the code.
Here it is sent at once through Twilio's REST API by whoever claims the row first (the outbox
sender never sends it: only this process has the code). Without Twilio credentials the row is
marked failed and the caller is told no code could be sent.
"""
from __future__ import annotations

import logging

import httpx

from gateway.outbox_delivery import send_claimed
from gateway.settings import Settings
from gateway.twilio.client import twilio_clients
from gateway.twilio.rest import TwilioRest, TwilioRestError
from gateway.twilio.texts import send_text
from gateway.voice.transfer_redirect import CallRedirects
from spine.records import OutboxMessage, OutboxStatus, TraceEvent, last4
from spine.repo import Spine
from spine.toolspec import OutboundText, ToolResult

log = logging.getLogger("clara.voice")
NOT_SENT = ("Error: the code could not be texted right now; apologize and offer a person from the team "
            "(do not offer to send a code again on this call).")


class CallTexts:
    def __init__(self, spine: Spine, rest: TwilioRest | None, redirects: CallRedirects | None = None) -> None:
        """`redirects`: moves the call when a tool asks to (transfer_to_staff); the same last step
        of every voice tool result as the texts, on both the webhook and the bridge."""
        self.spine, self.rest, self.redirects = spine, rest, redirects

    @classmethod
    def from_settings(cls, settings: Settings, spine: Spine, http: httpx.AsyncClient | None) -> CallTexts:
        twilio = twilio_clients(settings, http) if http is not None else None
        return cls(spine, twilio.messages if twilio else None, CallRedirects.from_settings(settings, spine, http))

    async def deliver(self, result: ToolResult, trace_lines: list[TraceEvent] | None = None) -> ToolResult:
        """Send the result's texts; a text that cannot be sent turns the result into an error the
        agent can act on (it must not ask for a code that never arrived). Then move the call if
        the tool asked to (`trace_lines`: CallRedirects.deliver)."""
        for text in result.texts:
            if not await self._send(text):
                return result.model_copy(update={"content": NOT_SENT, "is_error": True, "texts": [],
                                                 "reason": "step-up text not sent", "rule": "text-not-sent"})
        result = result.model_copy(update={"texts": []})
        return await self.redirects.deliver(result, trace_lines) if self.redirects is not None else result

    async def _send(self, text: OutboundText) -> bool:
        row = await self.spine.get_outbox(text.key)
        if row is None:  # queued by a tool of an older build: the row is written here
            row = OutboxMessage(id=text.key, to_address=text.to, from_address=text.from_, body=text.logged_body)
            await self.spine.put_outbox(row)
        if row.status != OutboxStatus.PENDING:
            return row.status == OutboxStatus.SENT
        if self.rest is None:
            log.warning("voice text %s to …%s not sent: no Twilio credentials", text.key, last4(text.to))
            await self.spine.put_outbox(row.model_copy(update={"status": OutboxStatus.FAILED,
                                                               "error": "no Twilio credentials"}))
            return False
        rest = self.rest

        async def post(message: OutboxMessage) -> str:  # the code's words, never the row's masked ones
            return await send_text(self.spine, rest, message, body=text.body)

        sent = await send_claimed(self.spine, row, post, TwilioRestError)
        return sent.status == OutboxStatus.SENT
