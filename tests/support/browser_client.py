"""Headless Chromium driven over the Chrome DevTools Protocol (a websocket), for the admin pages'
browser tests: open a page, fill and submit its forms as a person would (so the browser sends its
own Origin and keeps the session cookie), read the DOM, take screenshots.

    async with chromium(tmp_path) as browser:
        page = await browser.new_page()
        await page.sign_in(base_url, token, next_path="/admin/status")
        dom = await page.content()

One browser process, one fresh profile; pages are tabs. Needs /usr/bin/chromium.
"""
from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from websockets.asyncio.client import ClientConnection, connect

CHROMIUM = Path("/usr/bin/chromium")
LOAD_TIMEOUT_S = 30.0


class BrowserError(RuntimeError):
    """The DevTools protocol answered an error, or a page did not load in time."""


class Browser:
    def __init__(self, socket: ClientConnection) -> None:
        self.socket = socket
        self.ids = itertools.count(1)
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.listeners: list[tuple[str | None, str, asyncio.Future[dict[str, Any]]]] = []
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.socket:
            message = json.loads(raw)
            if "id" in message:
                future = self.replies.pop(message["id"], None)
                if future is not None and not future.done():
                    future.set_result(message)
                continue
            for entry in list(self.listeners):
                session, method, future = entry
                if method == message.get("method") and session == message.get("sessionId") and not future.done():
                    future.set_result(message.get("params", {}))
                    self.listeners.remove(entry)

    async def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        call_id = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.replies[call_id] = future
        message: dict[str, Any] = {"id": call_id, "method": method, "params": params or {}}
        if session is not None:
            message["sessionId"] = session
        await self.socket.send(json.dumps(message))
        reply = await asyncio.wait_for(future, LOAD_TIMEOUT_S)
        if "error" in reply:
            raise BrowserError(f"{method}: {reply['error']}")
        result: dict[str, Any] = reply.get("result", {})
        return result

    def expect(self, method: str, session: str | None) -> asyncio.Future[dict[str, Any]]:
        """A future for the next event `method` on `session` (register before acting)."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.listeners.append((session, method, future))
        return future

    async def new_page(self, width: int = 1280, height: int = 2400) -> Page:
        target = (await self.send("Target.createTarget", {"url": "about:blank"}))["targetId"]
        session = (await self.send("Target.attachToTarget", {"targetId": target, "flatten": True}))["sessionId"]
        page = Page(self, session)
        await page.send("Page.enable")
        await page.send("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        return page


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser, self.session = browser, session

    async def send(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        return await self.browser.send(method, params, self.session)

    async def _loaded_after(self, action: Any) -> None:
        loaded = self.browser.expect("Page.loadEventFired", self.session)
        await action
        await asyncio.wait_for(loaded, LOAD_TIMEOUT_S)

    async def goto(self, url: str) -> None:
        await self._loaded_after(self.send("Page.navigate", {"url": url}))

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                      "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression[:80]}: {result['exceptionDetails'].get('text')}")
        return result.get("result", {}).get("value")

    async def fill(self, selector: str, value: str) -> None:
        await self.evaluate(f"document.querySelector({json.dumps(selector)}).value = {json.dumps(value)}")

    async def submit(self, form_selector: str) -> None:
        """Submit a form as its button would (requestSubmit), and wait for the page it loads."""
        await self._loaded_after(self.evaluate(f"document.querySelector({json.dumps(form_selector)}).requestSubmit()"))

    async def sign_in(self, base_url: str, token: str, next_path: str = "/admin") -> None:
        """Through the sign-in form, as a person does: the page is then `next_path`."""
        await self.goto(f"{base_url}/admin/login?{urlencode({'next': next_path})}")
        await self.fill("input[name=token]", token)
        await self.submit('form[action="/admin/login"]')

    async def content(self) -> str:
        html: str = await self.evaluate("document.documentElement.outerHTML")
        return html

    async def url(self) -> str:
        href: str = await self.evaluate("location.href")
        return href

    async def screenshot(self, path: Path) -> bytes:
        data = base64.b64decode((await self.send("Page.captureScreenshot", {"format": "png"}))["data"])
        path.write_bytes(data)
        return data


async def _devtools_url(profile: Path, proc: asyncio.subprocess.Process) -> str:
    """Chromium writes its DevTools port and browser path to the profile once it listens."""
    marker = profile / "DevToolsActivePort"
    for _ in range(int(LOAD_TIMEOUT_S / 0.05)):
        if marker.exists() and len(lines := marker.read_text().split()) >= 2:
            return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
        if proc.returncode is not None:
            break
        await asyncio.sleep(0.05)
    raise BrowserError("chromium did not open its DevTools port")


@contextlib.asynccontextmanager
async def chromium(tmp: Path) -> AsyncIterator[Browser]:
    profile = tmp / f"profile-{os.urandom(4).hex()}"
    proc = await asyncio.create_subprocess_exec(
        str(CHROMIUM), "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
        "--hide-scrollbars", "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank",
        stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        async with connect(await _devtools_url(profile, proc), max_size=None) as socket:
            browser = Browser(socket)
            try:
                yield browser
            finally:
                browser.reader.cancel()
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()
