"""`gateway demo` (what `make run` runs): the whole gateway on this machine, then K-1..K-5, a
leasing agent's tour list and an on-call page (gateway.cli.demo_paging).

Sets up the store (default sqlite:///var/clara.db) and the demo data, starts a local Ray and the
gateway from ray_config.yaml (offline model; Anthropic when ANTHROPIC_API_KEY is set), replays the
ADR's five examples as signed Twilio-shaped requests over real HTTP to its own /sms/twilio, prints
each flow from its trace (/admin/traces/{id}), then keeps serving until Ctrl-C.
"""
from __future__ import annotations

import asyncio
import os
import secrets
import time
from dataclasses import dataclass

import httpx

from gateway.cli.demo_paging import replay_page
from gateway.cli.email import EmailExchange, send_email
from gateway.cli.serve import (
    ServeStartError,
    block_until_stopped,
    checked_config,
    concrete_store_env,
    report,
    seed_store,
    start_gateway,
)
from gateway.cli.sms import DEFAULT_TO, SmsExchange, send_sms
from gateway.cli.telegram import TelegramExchange, send_update
from gateway.settings import Settings
from gateway.telegram.updates import contact_update, text_update
from spine.context import Channel
from spine.participants import resolve_person


@dataclass(frozen=True)
class Flow:
    label: str
    who: str
    phone: str  # the sender's address: a phone number, an email address, a Telegram user id
    body: str
    channel: Channel = Channel.SMS
    contact: str | None = None  # Telegram: the phone the user shares as their own contact first


FLOWS = [
    Flow("K-1", "tenant texts maintenance", "+12065551001", "my toilet is overflowing!"),
    Flow("K-2", "vendor about a work order (a voice call in the ADR; sent here as SMS)", "+13035551500",
         "I'm 10 min out from WO-7"),
    Flow("K-3", "unknown number asks about availability", "+14155559876", "do you have 2BR units next month?"),
    Flow("K-4", "multi-role caller (vendor + tenant)", "+13035552020", "check on WO-42"),
    Flow("K-5", "wrong number", "+13105557777", "yo what's up Trevor"),
    # Beyond the ADR's five: staff asking Clara, here the leasing agent about the demo's tours.
    Flow("Tours", "leasing agent asks what tours are booked", "+12065550152", "any tours scheduled today?"),
]

# The same path on the other two channels: Marcus by verified email, Mike on the property's
# Telegram bot after sharing his contact.
CHANNEL_FLOWS = [
    Flow("K-1 by email", "tenant emails maintenance (SPF and DKIM pass for example.com)", "marcus@example.com",
         "my toilet is overflowing!", Channel.EMAIL),
    Flow("K-2 on Telegram", "vendor shares his contact, then writes about a work order", "5550001",
         "I'm 10 min out from WO-7", Channel.TELEGRAM, contact="+13035551500"),
]


def ensure_tokens() -> dict[str, str]:
    """Generated local values for the secrets the demo needs and the user did not set."""
    made = {}
    for name in ("GATEWAY_ADMIN_TOKEN", "TWILIO_AUTH_TOKEN", "MAILGUN_SIGNING_KEY", "TELEGRAM_WEBHOOK_SECRET"):
        if not os.environ.get(name):
            os.environ[name] = made[name] = secrets.token_urlsafe(18)
    return made


def print_flow(flow: Flow, exchange, trace: dict | None, names: dict[str, str]) -> None:
    print(f"\n{flow.label}  {flow.who}")
    sender = {Channel.SMS: f"…{flow.phone[-4:]}", Channel.EMAIL: flow.phone}.get(flow.channel, f"user {flow.phone}")
    print(f"  {flow.channel} from {sender}: {flow.body!r}")
    if exchange.error:
        print(f"  error: HTTP {exchange.status_code}: {exchange.error}")
        return
    if trace is None:
        print(f"  reply: {' / '.join(exchange.messages) or '(none)'}   (no trace: {exchange.interaction_id})")
        return
    routing = trace["routing"]
    person = trace["participant_id"]
    caller = f"{person} ({names.get(person, 'minted just now')})" if person else "unknown (no Person)"
    other = routing.get("other_classification") or {}
    print(f"  caller: {caller}")
    print(f"  roles: {', '.join(routing['roles'])} ({routing['confidence']})"
          + (f"; other: {other.get('description')} / {other.get('spine_category')}" if other else ""))
    print(f"  tools offered ({len(trace['tools_offered'])}): {', '.join(trace['tools_offered'])}")
    calls = [f"{c['name']} [{c['decision']}]" for c in trace["tool_calls"]]
    print(f"  tools called: {', '.join(calls) or 'none'}")
    for text in exchange.messages or ["(no reply)"]:
        print(f"  reply: {text}")
    print(f"  trace: GET /admin/traces/{trace['interaction_id']}  ({trace['latency_ms']['total']:.0f} ms)")


async def replay(settings: Settings) -> int:
    from gateway.cli.common import open_spine

    spine = open_spine(settings, read_only=True)
    names = {}
    for flow in FLOWS:
        person = await resolve_person(spine, Channel.SMS, flow.phone)
        if person:
            names[person.id] = person.display_name
    await spine.store.close()
    failures = 0
    headers = {"Authorization": f"Bearer {settings.admin_token}"}
    async with httpx.AsyncClient(base_url=settings.public_url, timeout=30.0) as http:
        for flow in FLOWS + CHANNEL_FLOWS:
            exchange = await send(http, settings, flow)
            trace = None
            if exchange.interaction_id:
                response = await http.get(f"/admin/traces/{exchange.interaction_id}", headers=headers)
                trace = response.json() if response.status_code == 200 else None
            failures += bool(exchange.error)
            print_flow(flow, exchange, trace, names)
        failures += await replay_page(http, settings)
    return failures


async def send(http: httpx.AsyncClient, settings: Settings,
               flow: Flow) -> SmsExchange | EmailExchange | TelegramExchange:
    """One flow over real HTTP, signed as its channel's provider signs it; an exchange with
    `messages`, `error`, `status_code` and `interaction_id`."""
    if flow.channel == Channel.EMAIL:
        return await send_email(http, base_url=settings.public_url, signing_key=settings.mailgun_signing_key or "",
                                from_=flow.phone, body=flow.body, subject="Bathroom")
    if flow.channel == Channel.TELEGRAM:
        updates = [contact_update(user_id=int(flow.phone), phone=flow.contact)] if flow.contact else []
        for update in updates:  # the contact first; the text only when it was taken
            linked = await send_update(http, base_url=settings.public_url,
                                       secret=settings.telegram_webhook_secret or "", update=update)
            if linked.error:
                return linked
        return await send_update(http, base_url=settings.public_url, secret=settings.telegram_webhook_secret or "",
                                 update=text_update(user_id=int(flow.phone), text=flow.body))
    return await send_sms(http, base_url=settings.public_url, auth_token=settings.twilio_auth_token or "",
                          from_=flow.phone, to=DEFAULT_TO, body=flow.body, account_sid=settings.twilio_account_sid)


def print_setup(settings: Settings, made: dict[str, str]) -> None:
    print(f"store: {settings.store_url} (demo data seeded)")
    print(f"model: {settings.model}" + ("" if settings.model == "anthropic" else " (deterministic offline policy, "
                                                                                 "not an LLM; set ANTHROPIC_API_KEY for Claude)"))
    for name, value in made.items():
        print(f"{name}={value}  (generated for this run)")


def print_try_it(settings: Settings) -> None:
    print("\nSend your own message (in another shell):")
    print(f"  export TWILIO_AUTH_TOKEN={settings.twilio_auth_token}")
    print('  .venv/bin/gateway sms --from +12065551001 "my toilet is overflowing!"')
    print(f"  export MAILGUN_SIGNING_KEY={settings.mailgun_signing_key} TELEGRAM_WEBHOOK_SECRET={settings.telegram_webhook_secret}")
    print('  .venv/bin/gateway email --from marcus@example.com "is the gym open?"')
    print('  .venv/bin/gateway telegram --user-id 5550002 --contact +12065551001 "is the gym open?"')
    print(f"  curl -H 'Authorization: Bearer {settings.admin_token}' {settings.public_url}/admin/traces")
    print("Ctrl-C stops the gateway.")


def register(sub) -> None:
    p = sub.add_parser("demo", help="start Ray + the gateway on SQLite, replay K-1..K-5 over HTTP, keep serving")
    p.add_argument("--config", default=None, help="Serve config file (default ./ray_config.yaml)")
    p.add_argument("--no-serve", action="store_true", help="replay the flows, then stop instead of serving")
    p.set_defaults(func=run)


def run(args) -> int:
    from ray import serve

    made = ensure_tokens()
    try:
        checked = checked_config(args.config)
        settings = concrete_store_env()
        asyncio.run(seed_store(settings))
        print_setup(settings, made)
        url = start_gateway(checked, address=None)
    except ServeStartError as exc:
        return report(exc)
    print(f"ready: {url} answers (POST /sms/twilio, /email/inbound, /telegram/webhook; GET /admin/traces, "
          "GET /readyz, GET /healthz)", flush=True)
    started = time.monotonic()
    failures = asyncio.run(replay(settings))
    print(f"\nreplayed {len(FLOWS) + len(CHANNEL_FLOWS) + 1} flows in {time.monotonic() - started:.1f}s"
          + (f", {failures} failed" if failures else ""))
    if args.no_serve:
        import ray

        serve.shutdown()
        ray.shutdown()
        return 1 if failures else 0
    print_try_it(settings)
    block_until_stopped(address=None)
    return 0
