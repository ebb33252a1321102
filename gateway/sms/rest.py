"""A small client for Twilio's Messages REST API over httpx:
`POST {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth
(AccountSid, AuthToken), form fields To/From/Body/StatusCallback; 201 with the Message JSON."""
from __future__ import annotations

import httpx
from pydantic import BaseModel, ConfigDict

from gateway.errors import ProviderError
from gateway.http_retry import FormSender
from spine.records import last4


class SentMessage(BaseModel):
    """The fields of Twilio's Message resource the gateway keeps (others are ignored)."""

    model_config = ConfigDict(extra="ignore")

    sid: str
    status: str
    to: str | None = None
    from_: str | None = None
    num_segments: str | None = None
    error_code: int | None = None
    error_message: str | None = None


class TwilioRestError(ProviderError):
    """Twilio refused the send or could not be reached; `code` is Twilio's error code if any."""

    def __init__(self, message: str, *, status: int | None = None, code: int | None = None) -> None:
        super().__init__(message, status=status)
        self.code = code


class TwilioRest:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, account_sid: str, auth_token: str,
                 backoff_s: float = 0.5) -> None:
        url = f"{api_base.rstrip('/')}/2010-04-01/Accounts/{account_sid}/Messages.json"
        self._sender = FormSender(http, url, httpx.BasicAuth(account_sid, auth_token), provider="Twilio",
                                  error=TwilioRestError, backoff_s=backoff_s)

    async def send(self, *, to: str, from_: str, body: str, status_callback: str | None = None) -> SentMessage:
        form = {"To": to, "From": from_, "Body": body}
        if status_callback:
            form["StatusCallback"] = status_callback
        response, payload = await self._sender.post(form)
        if response.status_code >= 300 or "sid" not in payload:
            code = payload.get("code")
            raise TwilioRestError(
                f"Twilio answered {response.status_code} sending to …{last4(to)}: "
                f"{payload.get('message') or response.text[:200]}",
                status=response.status_code, code=code if isinstance(code, int) else None)
        payload["from_"] = payload.pop("from", None)
        return SentMessage.model_validate(payload)
