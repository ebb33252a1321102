"""Texts a voice tool asks the channel to send during a call (the step-up's one-time code).

Sent at once through Twilio's REST API; the outbox keeps a row per text, with the code masked
(`OutboundText.logged_body`), so operators see that a code went out and where, never the code.
Without Twilio credentials the row stays pending and the caller is told no code could be sent.
"""
from __future__ import annotations

import logging

import httpx

from gateway.settings import Settings
from gateway.sms.rest import TwilioRest, TwilioRestError
from spine.records import OutboxMessage, OutboxStatus, last4
from spine.repo import Spine
from spine.toolspec import OutboundText, ToolResult

log = logging.getLogger("clara.voice")
NOT_SENT = ("Error: the code could not be texted right now; apologize and offer a person from the team "
            "(do not offer to send a code again on this call).")


class CallTexts:
    def __init__(self, spine: Spine, rest: TwilioRest | None) -> None:
        self.spine, self.rest = spine, rest

    @classmethod
    def from_settings(cls, settings: Settings, spine: Spine, http: httpx.AsyncClient | None) -> CallTexts:
        rest = None
        if http is not None and settings.twilio_account_sid and settings.twilio_auth_token:
            rest = TwilioRest(http, api_base=settings.twilio_api_base, account_sid=settings.twilio_account_sid,
                              auth_token=settings.twilio_auth_token)
        return cls(spine, rest)

    async def deliver(self, result: ToolResult) -> ToolResult:
        """Send the result's texts; a text that cannot be sent turns the result into an error the
        agent can act on (it must not ask for a code that never arrived)."""
        for text in result.texts:
            if not await self._send(text):
                return result.model_copy(update={"content": NOT_SENT, "is_error": True, "texts": [],
                                                 "reason": "step-up text not sent", "rule": "text-not-sent"})
        return result.model_copy(update={"texts": []})

    async def _send(self, text: OutboundText) -> bool:
        row = OutboxMessage(id=text.key, to_address=text.to, from_address=text.from_, body=text.logged_body)
        await self.spine.put_outbox(row)
        if self.rest is None:
            log.warning("voice text %s to …%s left pending: no Twilio credentials", text.key, last4(text.to))
            return False
        try:
            sent = await self.rest.send(to=text.to, from_=text.from_, body=text.body)
        except TwilioRestError as exc:
            log.warning("voice text %s to …%s failed: %s", text.key, last4(text.to), exc)
            await self.spine.put_outbox(row.model_copy(update={"status": OutboxStatus.FAILED, "error": str(exc)}))
            return False
        await self.spine.put_outbox(row.model_copy(update={"status": OutboxStatus.SENT, "provider_id": sent.sid}))
        return True
