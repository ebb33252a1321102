"""The staff console in headless Chromium, driven by Playwright: Priya signs in, sees an
escalation and acknowledges it; opens Marcus's conversation, writes to him, sees his answer
arrive and hands back to Clara; Nora signs in and sees Beacon's escalations only.

The gateway runs on a real loopback port over real PersonActors (in-process host, offline
model). Set CLARA_SCREENSHOT_DIR to keep screenshots. Skipped, with the reason, when Debian's Chromium (/usr/bin/chromium; `make test`
installs it where it can) or the playwright package is missing."""
from __future__ import annotations

import asyncio
import os
import socket
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
import uvicorn

from gateway.app import create_app
from gateway.cli.sms import send_sms
from gateway.context import GatewayContext
from spine.admin_access import issue_token
from spine.escalation import EscalationStatus
from tests.support.console_helpers import actor_pool, escalation
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, MARCUS, YALE, settings_for

CHROMIUM = Path("/usr/bin/chromium")
async_api = pytest.importorskip("playwright.async_api", reason="the browser test drives Chromium with playwright")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="headless browser test needs /usr/bin/chromium "
                                                               "(apt-get install chromium); not installed here")
# As the machine's notes say: without these, Chromium's background connections hit the closed network.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-extensions"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def served(spine):
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    context = GatewayContext(settings_for(spine, None, public_url=base), spine, actor_pool(spine))
    server = uvicorn.Server(uvicorn.Config(create_app(context), host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    yield base
    server.should_exit = True
    await task
    await context.sms.drain()
    await context.http.aclose()


async def token(spine, person_id: str) -> str:
    secret, record = issue_token(person_id, timedelta(hours=1))
    await spine.put_admin_token(record)
    return secret


async def sign_in(browser, base: str, secret: str, path: str):
    """A fresh profile opens `path`, gets the sign-in page, and signs in through its form."""
    page = await (await browser.new_context()).new_page()
    await page.goto(base + path)
    await page.fill("input[name=token]", secret)
    await page.click("button[type=submit]")
    await page.wait_for_url(base + path)
    return page


async def shot(page, name: str) -> None:
    """With CLARA_SCREENSHOT_DIR set, keep a screenshot for a look."""
    if folder := os.environ.get("CLARA_SCREENSHOT_DIR"):
        await page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


async def test_priya_works_the_console_and_nora_sees_beacon_only(served, spine):
    base = served
    await escalation(spine, "e_yale", "pf_yale", urgency="urgent")
    await escalation(spine, "e_beacon", "pf_beacon", person_id=None, minutes_ago=3)
    async with httpx.AsyncClient() as http:
        async def marcus(body: str) -> None:
            sent = await send_sms(http, base_url=base, auth_token=AUTH_TOKEN, from_=MARCUS, to=YALE, body=body,
                                  account_sid=ACCOUNT_SID)
            assert sent.status_code == 200, sent.error

        await marcus("my sink is dripping, can someone look?")
        async with async_api.async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                page = await sign_in(browser, base, await token(spine, "p_priya"), "/admin/escalations")
                row = page.locator("tr", has_text="reason e_yale")
                assert "Marcus Johnson" in await row.inner_text() and "…1001" in await row.inner_text()
                await row.locator("input[name=note]").first.fill("calling him now")
                async with page.expect_navigation():
                    await row.locator("button", has_text="Acknowledge").click()
                assert "acknowledged by p_priya: calling him now" in await page.locator("tr", has_text="reason e_yale").inner_text()
                assert (await spine.get_escalation("e_yale")).status == EscalationStatus.ACKNOWLEDGED
                await shot(page, "console-escalations")

                await page.goto(base + "/admin/conversations")
                async with page.expect_navigation():
                    await page.click("text=Marcus Johnson")
                assert "my sink is dripping" in await page.content()
                await page.fill("textarea[name=text]", "Hi Marcus, Priya here. I'll come by at 3.")
                async with page.expect_navigation():
                    await page.click("button:has-text('Send')")
                assert "staff: p_priya" in await page.locator("#mode").inner_text()
                assert "Priya here" in await page.content()

                await marcus("great, see you at 3")  # his answer arrives; Clara stays quiet
                await page.reload()
                assert "great, see you at 3" in await page.content()
                await shot(page, "console-conversation")
                async with page.expect_navigation():
                    await page.click("button:has-text('Hand back to Clara')")
                assert "Clara" in await page.locator("#mode").inner_text()

                nora = await sign_in(browser, base, await token(spine, "p_nora"), "/admin/escalations")
                listed = await nora.locator("tbody").inner_text()
                assert "reason e_beacon" in listed and "reason e_yale" not in listed
            finally:
                await browser.close()
