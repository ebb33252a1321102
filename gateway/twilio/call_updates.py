"""Redirecting a live call to new TwiML: Twilio's Calls API, `POST
/2010-04-01/Accounts/{AccountSid}/Calls/{CallSid}.json` with `Url` (the twilio library's
`calls(sid).update_async`, over the replica's httpx client and TWILIO_API_BASE). A call transfer
(gateway.voice.transfer_redirect) is its one user."""
from __future__ import annotations

import logging

import httpx
from twilio.base.exceptions import TwilioRestException
from twilio.rest import Client

from gateway.twilio.history import HttpxTwilio

log = logging.getLogger("clara.voice.transfer")


class TwilioCallUpdates:
    """The one REST request a transfer makes: redirect a live call to new TwiML."""

    def __init__(self, http: httpx.AsyncClient, *, api_base: str, account_sid: str, auth_token: str) -> None:
        client = Client(account_sid, auth_token, http_client=HttpxTwilio(http))
        client.api.base_url = api_base.rstrip("/")
        self.account = client.api.v2010.accounts(account_sid)

    async def redirect(self, call_sid: str, url: str) -> int:
        """Twilio's HTTP status for the update (0: it could not be reached)."""
        try:
            await self.account.calls(call_sid).update_async(url=url, method="POST")
            return 200
        except TwilioRestException as exc:
            log.warning("call %s not redirected: Twilio answered %s %s", call_sid, exc.status, exc.msg)
            return int(exc.status or 0)
        except httpx.HTTPError as exc:
            log.warning("call %s not redirected: Twilio unreachable: %r", call_sid, exc)
            return 0
