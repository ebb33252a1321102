"""What the sender subcommands (`gateway sms`, `gateway email`, `gateway telegram`) share: each
posts what its provider would post to the gateway, signed as that provider signs it, and reads
the answer into an Exchange; this module holds the answer's common fields, the `--url`
argument, the missing-secret error and the loop that posts and prints."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel

from gateway.channel_inbound import INTERACTION_HEADER

TIMEOUT_S = 30.0  # a turn answers within Twilio's 15 s; the rest is the first call's warm-up
AnExchange = TypeVar("AnExchange", bound="Exchange")


class Exchange(BaseModel):
    """One POST to the gateway, as the CLI and the demo report it."""

    status_code: int
    messages: list[str] = []  # Clara's reply as the demo prints it
    interaction_id: str | None = None
    error: str | None = None  # the gateway's answer when it was not 200

    @classmethod
    def of(cls: type[AnExchange], response: httpx.Response, **fields: Any) -> AnExchange:
        """The fields every answer has; `error` set unless the gateway answered 200."""
        exchange = cls(status_code=response.status_code, interaction_id=response.headers.get(INTERACTION_HEADER),
                       **fields)
        if response.status_code != 200:
            exchange.error = response.text.strip()
        return exchange


class JsonExchange(Exchange):
    """An answer of the email and Telegram webhooks: JSON with `outcome` and `reply`."""

    outcome: str | None = None
    reply: str | None = None

    def read(self, response: httpx.Response) -> dict[str, Any]:
        payload: dict[str, Any] = response.json()
        self.outcome, self.reply = payload.get("outcome"), payload.get("reply")
        self.messages = [self.reply] if self.reply else []
        return payload


def add_url_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default=None, help="gateway base URL (default GATEWAY_PUBLIC_URL)")


def missing_secret(name: str) -> int:
    """The exit code (2) after saying which secret the sender needs."""
    print(f"error: {name} is not set; use the value the gateway runs with (`gateway demo` prints it)",
          file=sys.stderr)
    return 2


async def post_each(base_url: str, sends: Sequence[Callable[[httpx.AsyncClient], Awaitable[AnExchange]]],
                    show: Callable[[AnExchange], None]) -> int:
    """Run each send in order and `show` its exchange; the exit code: 0, or 1 at the first that
    could not reach the gateway or was refused (the rest are not sent)."""
    async with httpx.AsyncClient(timeout=TIMEOUT_S) as http:
        for send in sends:
            try:
                exchange = await send(http)
            except httpx.HTTPError as exc:
                print(f"error: cannot reach the gateway at {base_url}: {exc}", file=sys.stderr)
                return 1
            if exchange.error:
                print(f"error: HTTP {exchange.status_code}: {exchange.error}", file=sys.stderr)
                return 1
            show(exchange)
    return 0
