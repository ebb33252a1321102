"""What Twilio already has: its Messages and Calls list resources read with the twilio library
(`messages.list_async`, `calls.list_async`), over the gateway's own httpx client and
`TWILIO_API_BASE` (the stand-in in tests). The outbox sender asks it whether a send whose sender
died before writing the sid back reached Twilio (gateway.outbox_sender)."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx
from twilio.base.exceptions import TwilioException
from twilio.http import AsyncHttpClient
from twilio.http.response import Response
from twilio.rest import Client

from gateway.errors import ProviderError

# Twilio's dates have whole seconds, and its clock is not ours: a message created this long before
# the claim still counts as the claimed send. Well under the shortest ack timeout (5 s), so the
# same page text sent to the same person one pass earlier is never taken for it.
CLOCK_SLACK = timedelta(seconds=2)
LOOKED_AT = 50  # the newest messages or calls to that number from ours since the claim's day


class HttpxTwilio(AsyncHttpClient):  # type: ignore[misc]  # twilio.* is untyped here
    """The twilio library's async HTTP client interface over an httpx client."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        super().__init__(logger=None, is_async=True)  # no logger: the library logs nothing
        self.http = http

    async def request(self, method: str, url: str, params: dict[str, object] | None = None,
                      data: dict[str, object] | None = None, headers: dict[str, str] | None = None,
                      auth: tuple[str, str] | None = None, timeout: float | None = None,  # noqa: ASYNC109 - the library's signature
                      allow_redirects: bool = False) -> Response:
        response = await self.http.request(method, url, params=params, data=data, headers=headers,  # type: ignore[arg-type]
                                           auth=auth, timeout=timeout or httpx.USE_CLIENT_DEFAULT,
                                           follow_redirects=allow_redirects)
        return Response(response.status_code, response.text, response.headers)


class TwilioHistory:
    def __init__(self, http: httpx.AsyncClient, *, api_base: str, account_sid: str, auth_token: str) -> None:
        self.client = Client(account_sid, auth_token, http_client=HttpxTwilio(http))
        self.client.api.base_url = api_base.rstrip("/")
        self.account = self.client.api.v2010.accounts(account_sid)

    async def message_sent(self, *, to: str, from_: str, body: str, since: datetime) -> list[str]:
        """The sids of messages to `to` from `from_` with this body, created at or after `since`."""
        found = await self._read(self.account.messages.list_async(to=to, from_=from_, date_sent_after=since,
                                                                  limit=LOOKED_AT))
        return [m.sid for m in found if m.body == body and _after(m.date_created, since)]

    async def calls_placed(self, *, to: str, from_: str, since: datetime) -> list[str]:
        """The sids of calls to `to` from `from_` created at or after `since`."""
        found = await self._read(self.account.calls.list_async(to=to, from_=from_, start_time_after=since,
                                                               limit=LOOKED_AT))
        return [c.sid for c in found if _after(c.date_created, since)]

    @staticmethod
    async def _read(listing: Any) -> list[Any]:
        try:
            return list(await listing)
        except (TwilioException, httpx.HTTPError) as exc:
            raise ProviderError(f"Twilio's list could not be read: {exc}") from exc


def _after(created: datetime | None, since: datetime) -> bool:
    return created is not None and created >= since - CLOCK_SLACK
