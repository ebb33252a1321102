"""The admin pages in headless Chromium (driven over the DevTools protocol, tests/support/
browser_client.py): a real browser signs in through the /admin/login form (its POST carries the
page's Origin; the cookie survives the redirect), renders the pages and signs out with the index
page's button. Skipped when /usr/bin/chromium is absent. Set CLARA_SCREENSHOT_DIR to keep the
screenshots for a look."""
from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path
from urllib.parse import urlencode

import pytest
import uvicorn

from gateway.app import create_app
from gateway.context import GatewayContext
from spine.events import context_build
from tests.support.admin_helpers import person_auth
from tests.support.browser_client import CHROMIUM, chromium
from tests.support.gateway_helpers import ADMIN_TOKEN, OfflinePool, settings_for

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="headless browser test needs /usr/bin/chromium "
                                                               "(apt-get install chromium); not installed here")
PNG = b"\x89PNG\r\n\x1a\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def served(spine):
    """The admin app on a real loopback port, in this test's event loop."""
    port = free_port()
    context = GatewayContext(settings_for(spine, None, public_url=f"http://127.0.0.1:{port}"), spine, OfflinePool(spine))
    server = uvicorn.Server(uvicorn.Config(create_app(context), host="127.0.0.1", port=port, log_level="warning",
                                           lifespan="off"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.02)
    yield f"http://127.0.0.1:{port}", context
    server.should_exit = True
    await task
    await context.http.aclose()


async def test_pages_in_a_real_browser(served, spine, tmp_path):
    base, _ = served
    import httpx

    async with httpx.AsyncClient(base_url=base) as client:
        ask = {"as_person_id": "p_marcus", "property_id": "pf_yale",
               "message": "my toilet is overflowing! <script>document.title='pwned'</script>"}
        answer = (await client.post("/admin/api/ask", json=ask, headers=await person_auth(spine, "p_priya"))).json()
    await context_build(spine, "ghost_pointer_filtered", channel="sms", address="+12065551002",
                        property_id="pf_yale", interaction_id="ix_ghost")
    trace_url = base + answer["trace_url"]

    async with chromium(tmp_path) as browser:
        page = await browser.new_page()
        # A sign-in link signs no one in: the browser gets the form, and no session.
        await page.goto(f"{base}/admin/login?" + urlencode({"token": ADMIN_TOKEN}))
        assert "a token in a link is not accepted" in await page.content()
        await page.goto(trace_url)
        assert 'action="/admin/login"' in await page.content()
        # The form (its POST carries this page's Origin) signs in and lands on the page asked for.
        await page.sign_in(base, ADMIN_TOKEN, next_path=answer["trace_url"])
        dom = await page.content()
        assert await page.url() == trace_url
        assert "CACHE BREAKPOINT" in dom and "impersonated by p_priya" in dom
        assert dom.split("<title>")[1].startswith("Trace ix_")  # the script never ran (it would retitle the page)
        assert "&lt;script&gt;" in dom  # shown as text, never run

        shots = Path(os.environ.get("CLARA_SCREENSHOT_DIR") or tmp_path)
        shots.mkdir(parents=True, exist_ok=True)
        pages = {"status": base + "/admin/status", "tools": base + "/admin/tools?role=viewer", "trace": trace_url,
                 "ask": base + "/admin/ask?as_person_id=p_marcus"}
        for name, url in pages.items():
            await page.goto(url)
            data = await page.screenshot(shots / f"admin-{name}.png")
            assert data.startswith(PNG) and len(data) > 20_000, name  # a rendered page, not a blank one

        # Signing out is the index page's button (a POST); the session then ends.
        await page.goto(base + "/admin")
        await page.submit('form[action="/admin/logout"]')
        assert await page.url() == base + "/admin/login"
        await page.goto(base + "/admin/status")
        assert 'action="/admin/login"' in await page.content()


async def test_nora_signs_in_and_sees_only_beacon(served, spine, tmp_path):
    base, _ = served
    nora = (await person_auth(spine, "p_nora"))["Authorization"].split()[1]
    async with chromium(tmp_path) as browser:
        page = await browser.new_page()
        await page.sign_in(base, nora, next_path="/admin/ask")
        dom = await page.content()
        assert "Signed in as p_nora" in dom and '<option value="pf_beacon"' in dom
        assert '<option value="pf_yale"' not in dom and '<option value="pf_capitol"' not in dom
