"""Buildium's Open API over HTTP (httpx), as Buildium asks to be called: the two key headers,
`BUILDIUM_API_BASE` + `/v1/...`, pages of up to 1,000 read by `offset` until `X-Total-Count`,
at most 10 requests a second, a 429 retried after a short wait, other failures retried a bounded
number of times with backoff. A list is an async generator of pages, so one page is held at a time.
The secret goes in a header and nowhere else: never in a log line, an error or a repr."""
from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, ValidationError

from gateway.errors import ProviderError
from gateway.pms.buildium.ratelimit import TokenBucket

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)
PAGE = 1000  # Buildium's largest page
RATE_PER_S = 10.0
Params = Mapping[str, str | int | Sequence[str]]


class BuildiumError(ProviderError):
    """Buildium refused a request, or kept failing past the retries."""


class BuildiumTimeout(BuildiumError):
    """No answer in time: a write may or may not have happened (look it up before writing again)."""


class BadRecord(BaseModel):
    """A record of a page that did not read as its model: reported, the rest of the page goes on."""

    path: str
    record_id: str
    reason: str


class BuildiumClient:
    def __init__(self, base: str, client_id: str, secret: str, *, rate_per_s: float = RATE_PER_S,
                 timeout_s: float = 10.0, retries: int = 5, retry_wait_s: float = 1.0, page: int = PAGE) -> None:
        self.base = base.rstrip("/")
        self.page = min(page, PAGE)
        self.retries, self.retry_wait_s = retries, retry_wait_s
        self.requests = 0  # sent, retries counted
        self.throttled = 0  # 429s received
        self._bucket = TokenBucket(rate_per_s)
        self._http = httpx.AsyncClient(base_url=self.base, timeout=timeout_s, headers={
            "x-buildium-client-id": client_id, "x-buildium-client-secret": secret, "Accept": "application/json"})

    def __repr__(self) -> str:
        return f"BuildiumClient({self.base!r})"  # never the headers

    async def aclose(self) -> None:
        await self._http.aclose()

    async def _send(self, method: str, path: str, params: Params | None = None, body: Any = None,
                    *, retry: bool = True) -> httpx.Response:
        """One call, waiting its turn under the rate limit; 429 and (if `retry`) 5xx and transport
        failures retried, at most `retries` times, waiting longer each time."""
        for attempt in range(self.retries + 1):
            await self._bucket.take()
            self.requests += 1
            try:
                reply = await self._http.request(method, path, params=params, json=body)
            except httpx.TimeoutException as exc:
                if not retry or attempt == self.retries:
                    raise BuildiumTimeout(f"{method} {path}: no answer ({type(exc).__name__})") from None
                await asyncio.sleep(self.retry_wait_s * 2**attempt)
                continue
            except httpx.TransportError as exc:
                if not retry or attempt == self.retries:
                    raise BuildiumError(f"{method} {path}: {type(exc).__name__}") from None
                await asyncio.sleep(self.retry_wait_s * 2**attempt)
                continue
            if reply.status_code == 429:
                self.throttled += 1
                log.info("buildium: 429 on %s %s, waiting", method, path)
                await asyncio.sleep(self._retry_after(reply))
                continue
            if reply.status_code >= 500 and retry and attempt < self.retries:
                await asyncio.sleep(self.retry_wait_s * 2**attempt)
                continue
            if reply.status_code >= 400:
                raise BuildiumError(f"{method} {path}: {reply.status_code} {_message(reply)}", status=reply.status_code)
            return reply
        raise BuildiumError(f"{method} {path}: still refused after {self.retries} retries", status=429)

    def _retry_after(self, reply: httpx.Response) -> float:
        """Buildium's wait if it names one (capped: a short wait), else the client's."""
        try:
            return min(float(reply.headers.get("Retry-After", "")), 5 * self.retry_wait_s)
        except ValueError:
            return self.retry_wait_s

    async def pages(self, path: str, model: type[M], params: Params | None = None,
                    ) -> AsyncIterator[tuple[list[M], list[BadRecord]]]:
        """Every record of a list, a page at a time: (the page's records, those that did not read)."""
        offset, total = 0, None
        while total is None or offset < total:
            reply = await self._send("GET", path, {**(params or {}), "limit": self.page, "offset": offset})
            total = int(reply.headers.get("X-Total-Count", "0"))
            raw = reply.json()
            if not raw:
                return
            yield _read(path, model, raw)
            offset += len(raw)

    async def get(self, path: str, model: type[M]) -> M:
        return model.model_validate((await self._send("GET", path)).json())

    async def post(self, path: str, body: BaseModel) -> dict[str, Any]:
        """A create, never retried here: a lost answer is BuildiumTimeout, for the caller to look up."""
        reply = await self._send("POST", path, body=body.model_dump(mode="json", exclude_none=True), retry=False)
        return reply.json()

    async def put(self, path: str, body: BaseModel) -> dict[str, Any]:
        """An update, not retried here either (a task's PUT adds its Message to the history)."""
        reply = await self._send("PUT", path, body=body.model_dump(mode="json", exclude_none=True), retry=False)
        return reply.json()


def _read(path: str, model: type[M], raw: list[dict[str, Any]]) -> tuple[list[M], list[BadRecord]]:
    good, bad = [], []
    for record in raw:
        try:
            good.append(model.model_validate(record))
        except ValidationError as exc:
            first = exc.errors()[0]
            bad.append(BadRecord(path=path, record_id=str(record.get("Id", "?")),
                                 reason=f"{'.'.join(map(str, first['loc']))}: {first['msg']}"))
    return good, bad


def _message(reply: httpx.Response) -> str:
    try:
        return str(reply.json().get("UserMessage") or "")[:200]
    except ValueError:
        return reply.text[:200]
