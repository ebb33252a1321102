"""POSTs to a provider that creates something (a text, an email): retried only when the provider
surely created nothing, a refused connection or a rate limit. A repeated POST after an ambiguous
5xx or a timeout could message the person twice, so those are not retried."""
from __future__ import annotations

import asyncio
from collections.abc import Collection

import httpx

RATE_LIMITED = frozenset({429})


async def post_unless_created(http: httpx.AsyncClient, url: str, *, attempts: int = 3, backoff_s: float = 0.5,
                              retry_statuses: Collection[int] = RATE_LIMITED, **request) -> httpx.Response:
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
