"""`gateway sms --from +12065551001 "my toilet is overflowing!"`: post a Twilio-shaped, signed
inbound SMS to the gateway's /sms/twilio and print the reply read from the TwiML."""
from __future__ import annotations

import argparse
import uuid
from collections.abc import Sequence

import httpx

from gateway.cli.sender import Exchange, add_url_argument, missing_secret, post_each
from gateway.settings import Settings
from gateway.twilio.signature import IDEMPOTENCY_HEADER, SIGNATURE_HEADER, sign
from gateway.twilio.twiml_sms import TwimlError, read_twiml

DEFAULT_TO = "+12065550100"  # JP Yale Station
PLACEHOLDER_ACCOUNT_SID = "AC" + "0" * 32


class SmsExchange(Exchange):
    message_sid: str


def new_message_sid() -> str:
    return "SM" + uuid.uuid4().hex


def inbound_form(*, from_: str, to: str, body: str, message_sid: str, account_sid: str,
                 media_urls: Sequence[str] = ()) -> dict[str, str]:
    """The parameters Twilio posts for an inbound message (the subset a gateway reads plus the
    bookkeeping ones, so the signature covers a realistic form)."""
    form = {"ToCountry": "US", "SmsMessageSid": message_sid, "NumMedia": str(len(media_urls)),
            "SmsSid": message_sid, "SmsStatus": "received", "Body": body, "To": to, "NumSegments": "1",
            "MessageSid": message_sid, "AccountSid": account_sid, "From": from_, "ApiVersion": "2010-04-01"}
    for n, url in enumerate(media_urls):
        form[f"MediaUrl{n}"] = url
        form[f"MediaContentType{n}"] = "image/jpeg"
    return form


async def send_sms(http: httpx.AsyncClient, *, base_url: str, auth_token: str, from_: str, body: str,
                   to: str = DEFAULT_TO, message_sid: str | None = None, account_sid: str | None = None,
                   media_urls: Sequence[str] = ()) -> SmsExchange:
    sid = message_sid or new_message_sid()
    url = base_url.rstrip("/") + "/sms/twilio"
    form = inbound_form(from_=from_, to=to, body=body, message_sid=sid,
                        account_sid=account_sid or PLACEHOLDER_ACCOUNT_SID, media_urls=media_urls)
    headers = {SIGNATURE_HEADER: sign(auth_token, url, form), IDEMPOTENCY_HEADER: str(uuid.uuid4())}
    response = await http.post(url, data=form, headers=headers)
    exchange = SmsExchange.of(response, message_sid=sid)
    if exchange.error:
        return exchange
    try:
        exchange.messages = read_twiml(response.text)
    except TwimlError as exc:
        exchange.error = f"the gateway answered something other than TwiML: {exc}"
    return exchange


def register(sub) -> None:
    p = sub.add_parser("sms", help="send a signed, Twilio-shaped inbound SMS to the gateway and print the reply")
    p.add_argument("body", help="the message text")
    p.add_argument("--from", dest="from_", required=True, help="sender, e.g. +12065551001 (Marcus)")
    p.add_argument("--to", default=DEFAULT_TO, help=f"the property number texted (default {DEFAULT_TO})")
    add_url_argument(p)
    p.add_argument("--media", action="append", default=[], help="a MediaUrl to attach (repeatable)")
    p.add_argument("--sid", default=None, help="MessageSid to use (repeat one to see deduplication)")
    p.set_defaults(func=run)


async def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not settings.twilio_auth_token:
        return missing_secret("TWILIO_AUTH_TOKEN")
    base_url, auth_token = args.url or settings.public_url, settings.twilio_auth_token

    async def send(http: httpx.AsyncClient) -> SmsExchange:
        return await send_sms(http, base_url=base_url, auth_token=auth_token, from_=args.from_, to=args.to,
                              body=args.body, message_sid=args.sid, account_sid=settings.twilio_account_sid,
                              media_urls=args.media)

    return await post_each(base_url, [send], show)


def show(exchange: SmsExchange) -> None:
    print(f"{exchange.message_sid} -> interaction {exchange.interaction_id or '-'}")
    if not exchange.messages:
        print("(no inline reply: Clara answers nothing to STOP, spam or an opted-out number; a slow turn's reply follows by the REST API or waits in the outbox)")
    for text in exchange.messages:
        print(f"Clara: {text}")
