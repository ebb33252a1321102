"""`gateway email --from marcus@example.com "the sink is leaking"`: post a signed, Mailgun-shaped
route POST to the gateway's /email/inbound, the way Mailgun's forward() does, and print the
outcome (the reply leaves through Mailgun's messages API, or waits in the outbox)."""
from __future__ import annotations

import sys

import httpx
from pydantic import BaseModel

from gateway.email.route_form import route_form
from gateway.settings import Settings
from gateway.sms.routes import INTERACTION_HEADER

DEFAULT_TO = "yale@clara.example"  # JP Yale Station


class EmailExchange(BaseModel):
    message_id: str
    status_code: int
    outcome: str | None = None
    reply: str | None = None
    messages: list[str] = []  # the reply as the demo prints it (as SmsExchange.messages)
    interaction_id: str | None = None
    sender_check: str | None = None
    error: str | None = None


async def send_email(http: httpx.AsyncClient, *, base_url: str, signing_key: str, from_: str, body: str,
                     to: str = DEFAULT_TO, subject: str = "", **form_options) -> EmailExchange:
    form = route_form(signing_key=signing_key, from_=from_, to=to, text=body, subject=subject, **form_options)
    response = await http.post(base_url.rstrip("/") + "/email/inbound", data=form)
    exchange = EmailExchange(message_id=form["Message-Id"].strip("<>"), status_code=response.status_code,
                             interaction_id=response.headers.get(INTERACTION_HEADER))
    if response.status_code != 200:
        exchange.error = response.text.strip()
        return exchange
    payload = response.json()
    exchange.outcome, exchange.sender_check = payload.get("outcome"), payload.get("sender_check")
    exchange.reply = payload.get("reply")
    exchange.messages = [exchange.reply] if exchange.reply else []
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
    p.add_argument("--url", default=None, help="gateway base URL (default GATEWAY_PUBLIC_URL)")
    p.set_defaults(func=run)


async def run(args) -> int:
    settings = Settings.from_env()
    if not settings.mailgun_signing_key:
        print("error: MAILGUN_SIGNING_KEY is not set; use the value the gateway runs with "
              "(`gateway demo` prints it)", file=sys.stderr)
        return 2
    base_url = args.url or settings.public_url
    async with httpx.AsyncClient(timeout=30.0) as http:
        try:
            exchange = await send_email(http, base_url=base_url, signing_key=settings.mailgun_signing_key,
                                        from_=args.from_, to=args.to, body=args.body, subject=args.subject,
                                        spf=args.spf, dkim=args.dkim, message_id=args.message_id)
        except httpx.HTTPError as exc:
            print(f"error: cannot reach the gateway at {base_url}: {exc}", file=sys.stderr)
            return 1
    if exchange.error:
        print(f"error: HTTP {exchange.status_code}: {exchange.error}", file=sys.stderr)
        return 1
    print(f"<{exchange.message_id}> -> {exchange.outcome}, interaction {exchange.interaction_id or '-'}")
    if exchange.sender_check:
        print(f"sender: {exchange.sender_check}")
    if exchange.reply:
        print(f"Clara: {exchange.reply}")
    print("(the reply goes out through Mailgun's messages API, or waits in the outbox without MAILGUN_API_KEY)")
    return 0
