"""`gateway telegram --user-id 5550001 "is the pool open?"`: post a Bot API update to the gateway's
/telegram/webhook with the secret header, the way Telegram does (`--contact +1...` shares that
phone as the user's own contact), and print Clara's answer.
`gateway telegram set-webhook [--url URL]` points the bot (TELEGRAM_BOT_TOKEN) at the gateway
with setWebhook and TELEGRAM_WEBHOOK_SECRET as its secret_token."""
from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from gateway.cli.sender import TIMEOUT_S, JsonExchange, add_url_argument, missing_secret, post_each
from gateway.settings import Settings
from gateway.telegram.botapi import TelegramBotApi, TelegramError
from gateway.telegram.secret import secret_problem
from gateway.telegram.updates import contact_update, text_update
from gateway.telegram.wire import SECRET_HEADER

WEBHOOK_PATH = "/telegram/webhook"


class TelegramExchange(JsonExchange):
    update_id: int


async def send_update(http: httpx.AsyncClient, *, base_url: str, secret: str, update: dict[str, Any]) -> TelegramExchange:
    response = await http.post(base_url.rstrip("/") + WEBHOOK_PATH, json=update, headers={SECRET_HEADER: secret})
    exchange = TelegramExchange.of(response, update_id=update["update_id"])
    if not exchange.error:
        exchange.read(response)
    return exchange


def register(sub) -> None:
    p = sub.add_parser("telegram", help="send a Telegram update to the gateway, or `telegram set-webhook`")
    p.add_argument("text", nargs="?", default="", help='the message text, or "set-webhook" to register the webhook with Telegram')
    p.add_argument("--user-id", type=int, default=None, help="the sender's Telegram user id")
    p.add_argument("--contact", default=None, help="share this phone (+1...) as the user's own contact")
    p.add_argument("--first-name", default="Telegram user")
    add_url_argument(p)
    p.set_defaults(func=run)


async def set_webhook(settings: Settings, url: str) -> int:
    if not (settings.telegram_bot_token and settings.telegram_webhook_secret):
        print("error: set TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_SECRET first", file=sys.stderr)
        return 2
    problem = secret_problem(settings.telegram_webhook_secret)
    if problem is not None:  # checked here: never sent to Telegram
        print(f"error: {problem}", file=sys.stderr)
        return 2
    async with httpx.AsyncClient(timeout=TIMEOUT_S) as http:
        api = TelegramBotApi(http, api_base=settings.telegram_api_base, token=settings.telegram_bot_token)
        try:
            await api.set_webhook(url, settings.telegram_webhook_secret)
        except TelegramError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 1
    print(f"webhook set: {url} (updates: message, edited_message; secret token from TELEGRAM_WEBHOOK_SECRET)")
    return 0


async def run(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    base_url = args.url or settings.public_url
    if args.text == "set-webhook":
        return await set_webhook(settings, base_url.rstrip("/") + WEBHOOK_PATH)
    if args.user_id is None:
        print("error: --user-id is required to send an update", file=sys.stderr)
        return 2
    if not settings.telegram_webhook_secret:
        return missing_secret("TELEGRAM_WEBHOOK_SECRET")
    secret = settings.telegram_webhook_secret
    updates = [contact_update(user_id=args.user_id, phone=args.contact, first_name=args.first_name)] if args.contact else []
    if args.text:
        updates.append(text_update(user_id=args.user_id, text=args.text, first_name=args.first_name))

    def sender(update: dict[str, Any]) -> Callable[[httpx.AsyncClient], Awaitable[TelegramExchange]]:
        return lambda http: send_update(http, base_url=base_url, secret=secret, update=update)

    return await post_each(base_url, [sender(update) for update in updates], show)


def show(exchange: TelegramExchange) -> None:
    print(f"update {exchange.update_id} -> {exchange.outcome}, interaction {exchange.interaction_id or '-'}")
    print(f"Clara: {exchange.reply}" if exchange.reply else "(no reply in the webhook answer)")
