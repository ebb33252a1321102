"""The office's day in headless Chromium (Playwright): a new SMS appears on an open conversation
page without a reload; a status change made on the board's page reaches the tenant (his notice in
the outbox) and the open board shows it without a reload; the reports page draws its charts; Nora
sees only Beacon on every console page.

Skipped, with the reason, when /usr/bin/chromium or the playwright package is missing."""
from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import httpx
import pytest

from gateway.cli.sms import send_sms
from spine.admin_access import issue_token
from tests.support.console_helpers import escalation
from tests.support.console_server import serve_console
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, MARCUS, YALE

CHROMIUM = Path("/usr/bin/chromium")
async_api = pytest.importorskip("playwright.async_api", reason="the browser test drives Chromium with playwright")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="headless browser test needs /usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-extensions"]
LIVE_MS = 8000  # an event reaches the page in about a second (0.5 s polls); this is the test's patience


@pytest.fixture
async def browser(spine):
    async with serve_console(spine) as base, async_api.async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield base, chromium
        finally:
            await chromium.close()


async def sign_in(spine, chromium, base: str, person_id: str, path: str):
    secret, record = issue_token(person_id, timedelta(hours=1))
    await spine.put_admin_token(record)
    page = await (await chromium.new_context()).new_page()
    await page.goto(base + "/admin/escalations")  # the sign-in form returns to a path (no query)
    await page.fill("input[name=token]", secret)
    await page.click("button[type=submit]")
    await page.wait_for_url(base + "/admin/escalations")
    if path != "/admin/escalations":
        await page.goto(base + path)
    return page


async def marcus(base: str, body: str) -> None:
    async with httpx.AsyncClient() as http:
        sent = await send_sms(http, base_url=base, auth_token=AUTH_TOKEN, from_=MARCUS, to=YALE, body=body,
                              account_sid=ACCOUNT_SID)
    assert sent.status_code == 200, sent.error


async def test_a_new_sms_appears_on_the_open_conversation_page(browser, spine):
    base, chromium = browser
    await marcus(base, "my sink is dripping")
    page = await sign_in(spine, chromium, base, "p_priya", "/admin/conversations/p_marcus?property_id=pf_yale")
    assert "my sink is dripping" in await page.content()
    await page.evaluate("window.notReloaded = true")
    await marcus(base, "also the hallway light is out")
    await page.wait_for_function("document.body.innerText.includes('hallway light is out')", timeout=LIVE_MS)
    assert await page.evaluate("window.notReloaded === true")  # the same document: no reload


async def test_a_status_change_on_the_board_reaches_the_tenant(browser, spine):
    base, chromium = browser
    board = await sign_in(spine, chromium, base, "p_priya", "/admin/work-orders?property_id=pf_yale")
    assert "WO-7" in await board.locator("#board").inner_text()
    await board.evaluate("window.notReloaded = true")
    page = await (board.context).new_page()
    await page.goto(base + "/admin/work-orders/WO-7")
    await page.select_option("select[name=status]", "completed")
    await page.fill("input[name=note]", "replaced the flapper")
    async with page.expect_navigation():
        await page.click("button:has-text('Save')")
    assert "replaced the flapper" in await page.content() and "Priya" in await page.content()
    [told] = [row for row in await spine.outbox() if row.recipient_person_id == "p_marcus"]
    assert "WO-7" in told.body and "completed" in told.body  # the tenant's notice, as a vendor's change sends it
    await board.wait_for_function(
        "[...document.querySelectorAll('#board tr')].some(r => r.innerText.includes('WO-7')"
        " && r.innerText.includes('completed'))", timeout=LIVE_MS)
    assert await board.evaluate("window.notReloaded === true")


async def test_the_reports_page_draws_its_charts(browser, spine):
    base, chromium = browser
    await marcus(base, "is the pool open today?")
    page = await sign_in(spine, chromium, base, "p_priya", "/admin/reports?property_id=pf_yale")
    charts = page.locator("figure.chart svg")
    assert await charts.count() == 3
    box = await charts.first.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 100  # drawn, not an empty element
    assert await page.locator("figure.chart svg rect").count() > 0
    assert "inbound.sms" in await page.content()


async def test_nora_sees_only_beacon_everywhere(browser, spine):
    base, chromium = browser
    await escalation(spine, "e_yale", "pf_yale")
    await escalation(spine, "e_beacon", "pf_beacon", person_id=None)
    await marcus(base, "my sink is dripping")  # a Yale conversation
    nora = await sign_in(spine, chromium, base, "p_nora", "/admin/escalations")
    listed = await nora.locator("main").inner_text()
    assert "reason e_beacon" in listed and "reason e_yale" not in listed
    for path, absent in (("/admin/conversations", "pf_yale"), ("/admin/work-orders", "WO-7"),
                         ("/admin/reports", "pf_yale")):
        await nora.goto(base + path)
        text = await nora.locator("main").inner_text()
        assert absent not in text, path
    await nora.goto(base + "/admin/work-orders")
    assert "WO-90" in await nora.locator("#board").inner_text()
    answer = await nora.goto(base + "/admin/work-orders/WO-7")
    assert answer is not None and answer.status == 404
