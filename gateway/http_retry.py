"""POSTs to a provider that creates something (a text, an email): retried only when the provider
surely created nothing, a refused connection or a rate limit. A repeated POST after an ambiguous
5xx or a timeout could message the person twice, so those are not retried.

`FormSender` is the one send loop of the REST clients that post forms (Twilio's Messages API,
Mailgun's messages API): retries as above, transport failures as the client's own ProviderError,
the answer's JSON object read once."""
from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping
from typing import Any

import httpx

from gateway.errors import ProviderError
from gateway.untrusted import json_value

RATE_LIMITED = frozenset({429})


async def post_unless_created(http: httpx.AsyncClient, url: str, *, attempts: int = 3, backoff_s: float = 0.5,
                              retry_statuses: Collection[int] = RATE_LIMITED, **request: Any) -> httpx.Response:
    """The provider's last answer; raises httpx.ConnectError when it never answered, and any
    other httpx.HTTPError at once."""
    for attempt in range(attempts):
        last = attempt + 1 == attempts
        try:
            response = await http.post(url, **request)
        except httpx.ConnectError:
            if last:
                raise
        else:
            if response.status_code not in retry_statuses or last:
                return response
        await asyncio.sleep(backoff_s * (2 ** attempt))
    raise AssertionError("unreachable")


class FormSender:
    """Posts forms to one provider endpoint with HTTP basic auth; failures to reach it raise
    `error` (the client's ProviderError subclass) naming `provider`."""

    def __init__(self, http: httpx.AsyncClient, url: str, auth: httpx.Auth, *, provider: str,
                 error: type[ProviderError], backoff_s: float = 0.5) -> None:
        self.http, self.url, self.auth = http, url, auth
        self.provider, self.error, self.backoff_s = provider, error, backoff_s

    async def post(self, form: Mapping[str, str]) -> tuple[httpx.Response, dict[str, Any]]:
        """The provider's answer and its JSON object ({} when the body is not one)."""
        try:
            response = await post_unless_created(self.http, self.url, backoff_s=self.backoff_s, data=dict(form),
                                                 auth=self.auth)
        except httpx.ConnectError as exc:
            raise self.error(f"cannot reach {self.provider} at {self.url}: {exc}") from exc
        except httpx.HTTPError as exc:
            raise self.error(f"{self.provider} request failed: {type(exc).__name__}: {exc}") from exc
        try:
            payload = json_value(response.content)
        except ValueError:
            payload = {}
        return response, payload if isinstance(payload, dict) else {}
