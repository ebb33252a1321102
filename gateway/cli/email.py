"""`gateway email --from marcus@example.com "the sink is leaking"`: post a signed, Mailgun-shaped
route POST to the gateway's /email/inbound, the way Mailgun's forward() does, and print the
outcome (the reply leaves through Mailgun's messages API, or waits in the outbox)."""
from __future__ import annotations

import argparse
from typing import Any

import httpx

from gateway.cli.sender import JsonExchange, add_url_argument, missing_secret, post_each
from gateway.email.route_form import route_form
from gateway.settings import Settings

DEFAULT_TO = "yale@clara.example"  # JP Yale Station


class EmailExchange(JsonExchange):
    message_id: str
    sender_check: str | None = None


async def send_email(http: httpx.AsyncClient, *, base_url: str, signing_key: str, from_: str, body: str,
                     to: str = DEFAULT_TO, subject: str = "", **form_options: Any) -> EmailExchange:
    form = route_form(signing_key=signing_key, from_=from_, to=to, text=body, subject=subject, **form_options)
    response = await http.post(base_url.rstrip("/") + "/email/inbound", data=form)
    exchange = EmailExchange.of(response, message_id=form["Message-Id"].strip("<>"))
    if not exchange.error:
        exchange.sender_check = exchange.read(response).get("sender_check")
    return exchange


def register(sub) -> None:
    p = sub.add_parser("email", help="send a signed, Mailgun-shaped inbound email to the gateway")
    p.add_argument("body", help="the message text")
    p.add_argument("--from", dest="from_", required=True, help="sender, e.g. marcus@example.com")
    p.add_argument("--to", default=DEFAULT_TO, help=f"the property address written to (default {DEFAULT_TO})")
    p.add_argument("--subject", default="", help="the subject line")
    p.add_argument("--spf", choices=["pass", "fail", "none"], default="pass", help="what Mailgun's SPF check says")
    p.add_argument("--dkim", choices=["pass", "fail", "none"], default="pass", help="what Mailgun's DKIM check says")
    p.add_argument("--message-id", default=None, help="Message-Id to use (repeat one to see deduplication)")
    add_url_argument(p)
    p.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not settings.mailgun_signing_key:
        return missing_secret("MAILGUN_SIGNING_KEY")
    base_url, signing_key = args.url or settings.public_url, settings.mailgun_signing_key

    async def send(http: httpx.AsyncClient) -> EmailExchange:
        return await send_email(http, base_url=base_url, signing_key=signing_key, from_=args.from_, to=args.to,
                                body=args.body, subject=args.subject, spf=args.spf, dkim=args.dkim,
                                message_id=args.message_id)

    return await post_each(base_url, [send], show)


def show(exchange: EmailExchange) -> None:
    print(f"<{exchange.message_id}> -> {exchange.outcome}, interaction {exchange.interaction_id or '-'}")
    if exchange.sender_check:
        print(f"sender: {exchange.sender_check}")
    if exchange.reply:
        print(f"Clara: {exchange.reply}")
    print("(the reply goes out through Mailgun's messages API, or waits in the outbox without MAILGUN_API_KEY)")
