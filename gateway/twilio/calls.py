"""A small client for Twilio's Calls REST API over httpx, as gateway.twilio.rest is for Messages:
`POST {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/Calls.json`, HTTP basic auth, form
fields To/From/Url/Method (Twilio fetches the call's TwiML from Url when it answers); 201 with
the Call JSON, whose `sid` is CA + 32 hex digits."""
from __future__ import annotations

import httpx

from gateway.twilio.rest import refusal, resource_sender
from spine.records import last4

RING_TIMEOUT_S = 30  # how long Twilio lets the phone ring before giving up (its default is 60)


class TwilioCalls:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, account_sid: str, auth_token: str,
                 backoff_s: float = 0.5) -> None:
        self._sender = resource_sender(http, "Calls", api_base=api_base, account_sid=account_sid,
                                       auth_token=auth_token, backoff_s=backoff_s)

    async def create(self, *, to: str, from_: str, url: str, machine_detection: bool = False) -> str:
        """Place the call; its sid. `machine_detection`: Twilio's answering-machine detection,
        synchronous (the call's TwiML request carries `AnsweredBy`), so a voicemail box gets a
        voicemail rather than a prompt nobody will answer."""
        form = {"To": to, "From": from_, "Url": url, "Method": "POST", "Timeout": str(RING_TIMEOUT_S)}
        if machine_detection:
            form["MachineDetection"] = "Enable"
        response, payload = await self._sender.post(form)
        if response.status_code >= 300 or not isinstance(payload.get("sid"), str):
            raise refusal(response, payload, f"calling …{last4(to)}")
        return payload["sid"]
