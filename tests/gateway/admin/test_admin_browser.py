"""The admin pages in headless Chromium: a real browser signs in through /admin/login (the cookie
survives the redirect) and renders the pages. Skipped when /usr/bin/chromium is absent.
Set CLARA_SCREENSHOT_DIR to keep the screenshots for a look."""
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
from tests.support.gateway_helpers import ADMIN_TOKEN, OfflinePool, settings_for

CHROMIUM = Path("/usr/bin/chromium")
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


async def chromium(tmp: Path, url: str, *, screenshot: Path | None = None) -> str:
    """Open `url` through the sign-in redirect in a fresh profile; the DOM, or a screenshot."""
    signed_in = url.split("/admin")[0] + "/admin/login?" + urlencode({"token": ADMIN_TOKEN,
                                                                      "next": "/admin" + url.split("/admin", 1)[1]})
    out = [f"--screenshot={screenshot}", "--window-size=1280,2400", "--hide-scrollbars"] if screenshot else ["--dump-dom"]
    proc = await asyncio.create_subprocess_exec(
        str(CHROMIUM), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
        f"--user-data-dir={tmp / ('profile-' + os.urandom(4).hex())}", *out, signed_in,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    stdout, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 0
    return stdout.decode()


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

    dom = await chromium(tmp_path, trace_url)
    assert "CACHE BREAKPOINT" in dom and "impersonated by p_priya" in dom
    assert dom.split("<title>")[1].startswith("Trace ix_")  # the script never ran (it would retitle the page)
    assert "&lt;script&gt;" in dom  # shown as text, never run

    shots = Path(os.environ.get("CLARA_SCREENSHOT_DIR") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    pages = {"status": base + "/admin/status", "tools": base + "/admin/tools?role=viewer", "trace": trace_url,
             "ask": base + "/admin/ask?as_person_id=p_marcus"}
    await asyncio.gather(*(chromium(tmp_path, url, screenshot=shots / f"admin-{name}.png") for name, url in pages.items()))
    for name in pages:
        data = (shots / f"admin-{name}.png").read_bytes()
        assert data.startswith(PNG) and len(data) > 20_000, name  # a rendered page, not a blank one
