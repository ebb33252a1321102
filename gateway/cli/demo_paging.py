"""The demo's on-call flow (after K-1..K-5): Marcus reports a gas smell, the page to Mike is shown
(its outbox rows: pending when Twilio is not configured, sent with Twilio's sid when it is), Mike
answers ACK, and what Marcus is told is shown. Everything goes over real HTTP to the running
gateway; the rows are read from its store."""
from __future__ import annotations

import asyncio

import httpx

import spine.keys as keys
from gateway.cli.common import open_spine
from gateway.cli.sms import DEFAULT_TO, SmsExchange, send_sms
from gateway.settings import Settings
from spine.records import OutboxMessage, last4
from spine.repo import Spine

MARCUS, MIKE = "+12065551001", "+13035551500"
REPORT = "I smell gas in my kitchen"
TICK_WAIT_S = 1.5  # a scheduler tick (0.5 s) and the send


async def _text(http: httpx.AsyncClient, settings: Settings, from_: str, body: str) -> SmsExchange:
    return await send_sms(http, base_url=settings.public_url, auth_token=settings.twilio_auth_token or "",
                          from_=from_, to=DEFAULT_TO, body=body, account_sid=settings.twilio_account_sid)


def _row(row: OutboxMessage | None, what: str) -> str:
    if row is None:
        return f"    {what}: (no row)"
    state = f"sent ({row.provider_id})" if row.status == "sent" else str(row.status)
    if row.status == "pending":
        state += " (no Twilio credentials: the outbox holds it)"
    return f"    {what} to …{last4(row.to_address)} [{state}]: {row.body!r}"


async def replay_page(http: httpx.AsyncClient, settings: Settings) -> int:
    print("\nOn call  tenant reports a gas smell; the on-call technician is paged and answers ACK")
    print(f"  sms from …{MARCUS[-4:]}: {REPORT!r}")
    report = await _text(http, settings, MARCUS, REPORT)
    if report.error:
        print(f"  error: HTTP {report.status_code}: {report.error}")
        return 1
    for text in report.messages:
        print(f"  reply: {text}")
    await asyncio.sleep(TICK_WAIT_S)
    spine = open_spine(settings, read_only=True)
    try:
        return await _page_and_ack(http, settings, spine)
    finally:
        await spine.store.close()


async def _page_and_ack(http: httpx.AsyncClient, settings: Settings, spine: Spine) -> int:
    held = await spine.open_pages_held_by("p_mike")
    if not held:
        print("  no page reached Mike (is an on-call plan set? `gateway oncall show pf_yale`)")
        return 1
    page = held[-1]
    print(f"  page {page.id} ({page.work_order_display_id or page.reason}), level 1 of {len(page.plan.levels)}, "
          f"code {page.code}, ack timeout {page.plan.ack_timeout_s} s:")
    print(_row(await spine.get_outbox(keys.page_step_notice(page.id, 0, "p_mike", "sms")), "sms "))
    print(_row(await spine.get_outbox(keys.page_step_notice(page.id, 0, "p_mike", "call")), "call"))
    ack = "ACK" if len(held) == 1 else f"ACK {page.code}"
    print(f"  sms from …{MIKE[-4:]}: {ack!r}")
    answer = await _text(http, settings, MIKE, ack)
    for text in answer.messages or ["(no reply)"]:
        print(f"  reply: {text}")
    await asyncio.sleep(TICK_WAIT_S)
    told = await spine.get_outbox(keys.page_reporter_notice(page.id, "acknowledged"))
    print("  Marcus is told:")
    print(_row(told, "sms "))
    taken = await spine.get_page(page.id)
    print(f"  page status: {taken.status if taken else 'gone'}"
          + (f", acknowledged by {taken.acknowledged_by} by {taken.acknowledged_via}" if taken and
             taken.acknowledged_by else ""))
    return 0 if told is not None else 1
