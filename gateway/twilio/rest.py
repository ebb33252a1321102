"""A small client for Twilio's Messages REST API over httpx:
`POST {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth
(AccountSid, AuthToken), form fields To/From/Body/StatusCallback; 201 with the Message JSON."""
from __future__ import annotations

from typing import Any

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


def resource_sender(http: httpx.AsyncClient, resource: str, *, api_base: str, account_sid: str, auth_token: str,
                    backoff_s: float) -> FormSender:
    """Posts forms to one of the account's REST resources (`Messages`, `Calls`), HTTP basic auth."""
    url = f"{api_base.rstrip('/')}/2010-04-01/Accounts/{account_sid}/{resource}.json"
    return FormSender(http, url, httpx.BasicAuth(account_sid, auth_token), provider="Twilio",
                      error=TwilioRestError, backoff_s=backoff_s)


def refusal(response: httpx.Response, payload: dict[str, Any], doing: str) -> TwilioRestError:
    """Twilio's answer to a create it refused, as an error naming what was being done."""
    code = payload.get("code")
    return TwilioRestError(f"Twilio answered {response.status_code} {doing}: "
                           f"{payload.get('message') or response.text[:200]}",
                           status=response.status_code, code=code if isinstance(code, int) else None)


class TwilioRest:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, account_sid: str, auth_token: str,
                 backoff_s: float = 0.5) -> None:
        self._sender = resource_sender(http, "Messages", api_base=api_base, account_sid=account_sid,
                                       auth_token=auth_token, backoff_s=backoff_s)

    async def send(self, *, to: str, from_: str, body: str, status_callback: str | None = None) -> SentMessage:
        form = {"To": to, "From": from_, "Body": body}
        if status_callback:
            form["StatusCallback"] = status_callback
        response, payload = await self._sender.post(form)
        if response.status_code >= 300 or "sid" not in payload:
            raise refusal(response, payload, f"sending to …{last4(to)}")
        payload["from_"] = payload.pop("from", None)
        return SentMessage.model_validate(payload)
