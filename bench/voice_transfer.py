"""The cost of moving a live call (issue 38), beside a plain server-tool call, in one run.

50 calls in progress (50 bench tenants dialed in through the personalization webhook); each round,
every call makes one server-tool request at once (`POST /voice/tools/{name}` through the real route,
the call's recorded authority, the gate and the Dispatcher, in process over a seeded SQLite store).
Rounds alternate between `transfer_to_staff` and a plain read-only tool (`get_property_hours`).
Measured: for the transfer, from the request until the Calls API update leaves for Twilio (the
moment the HTTP client hands it to its transport: an in-process Twilio that records it and answers
200); for the plain tool, the whole request. Criterion: the redirect's p50 and p99 within 1.5x of
the plain tool call's.

    .venv/bin/python bench/voice_transfer.py [--calls 50] [--rounds 10]
"""
from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.measure import pct, summary  # noqa: E402

TOKEN, SECRET, ACCOUNT = "bench-voice-token", "bench-twilio-token", "AC" + "b" * 32
PUBLIC = "https://clara.bench"


class TwilioClock:
    """An in-process Calls API: records when each call update leaves the gateway, answers 200."""

    def __init__(self) -> None:
        self.left: dict[str, float] = {}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        sid = request.url.path.rsplit("/", 1)[-1].removesuffix(".json")
        self.left[sid] = time.perf_counter()
        return httpx.Response(200, json={"sid": sid, "status": "in-progress"})


async def _app(store: Path, twilio: TwilioClock):
    from actors.dispatcher.dispatcher import Dispatcher
    from actors.model.offline import OfflineModel
    from bench.voice import seed_bench_tenants
    from desk.portfolio.demo import seed
    from gateway.app import new_app
    from gateway.settings import Settings
    from gateway.voice.services import VoiceServices
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(store))
    await seed(spine)
    await seed_bench_tenants(spine)
    http = httpx.AsyncClient(transport=httpx.MockTransport(twilio))
    settings = Settings(voice_token=TOKEN, twilio_auth_token=SECRET, twilio_account_sid=ACCOUNT,
                        twilio_api_base="https://api.twilio.bench", public_url=PUBLIC)
    services = VoiceServices.build(settings, spine, Dispatcher(spine), OfflineModel(), http=http)
    app = new_app()
    app.state.voice = services
    return spine, http, services, httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url=PUBLIC)


async def measure(calls: int = 50, rounds: int = 10, spread_s: float = 0.0) -> tuple[list[float], list[float]]:
    """(the redirect's cost per transfer, the plain tool call's duration), in ms. `spread_s`: each
    call asks at a random moment within it (0: all at once, the worst case)."""
    from actors.heap import settle_heap
    from bench.voice import CALLERS

    twilio = TwilioClock()
    store = Path(tempfile.mkdtemp(prefix="clara-bench-transfer-")) / "clara.db"
    spine, http, services, client = await _app(store, twilio)
    settle_heap()  # as a GatewayIngress replica does once its routes are built (gateway/app.py)
    headers = {"X-Clara-Voice-Token": TOKEN}
    sids = [f"CA{n:032x}" for n in range(1, calls + 1)]
    try:
        for sid, caller in zip(sids, CALLERS, strict=False):
            r = await client.post("/voice/personalization", headers=headers, json={
                "caller_id": caller, "agent_id": "bench", "called_number": "+12065550100", "call_sid": sid})
            r.raise_for_status()
        await services.calls.drain()
        redirect: list[float] = []
        plain: list[float] = []
        for n in range(rounds * 2 + 2):  # the first two rounds warm up, not counted
            tool = "transfer_to_staff" if n % 2 == 0 else "get_property_hours"
            body = {"reason": "wants a person", "urgency": "normal"} if tool == "transfer_to_staff" else {}

            async def one(sid: str, tool: str = tool, body: dict = body, n: int = n) -> float:
                await asyncio.sleep(random.uniform(0, spread_s))
                started = time.perf_counter()
                r = await client.post(f"/voice/tools/{tool}", headers=headers, json={
                    "interaction_id": f"voice-{sid}", "agent_turn": n, **body})
                r.raise_for_status()
                end = twilio.left.pop(sid) if tool == "transfer_to_staff" else time.perf_counter()
                return (end - started) * 1000

            took = await asyncio.gather(*(one(sid) for sid in sids))
            if n >= 2:
                (redirect if tool == "transfer_to_staff" else plain).extend(took)
        return redirect, plain
    finally:
        await services.calls.drain()
        await client.aclose()
        await http.aclose()
        await spine.store.close()


def report(redirect: list[float], plain: list[float], calls: int, spread_s: float = 0.0) -> bool:
    p50, p99 = pct(redirect, 50) / pct(plain, 50), pct(redirect, 99) / pct(plain, 99)
    ok = p50 <= 1.5 and p99 <= 1.5
    when = f"each asking within {spread_s:g} s" if spread_s else "all asking at once"
    print(f"a call moved (transfer_to_staff), {calls} calls in progress, {when}, in process (SQLite):")
    print(f"  plain server tool (get_property_hours), whole request : {summary(plain)}")
    print(f"  transfer, from the tool call until the request to Twilio leaves : {summary(redirect)}")
    print(f"  ratio: p50 {p50:.2f}x  p99 {p99:.2f}x -> within 1.5x: {'PASS' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    import logging

    logging.disable(logging.WARNING)  # the events' log lines are not what is measured
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--spread", type=float, default=1.0, help="seconds over which each round's calls ask")
    parsed = parser.parse_args()
    burst = asyncio.run(measure(parsed.calls, parsed.rounds))
    report(*burst, parsed.calls)
    spread = asyncio.run(measure(parsed.calls, parsed.rounds, parsed.spread))
    sys.exit(0 if report(*spread, parsed.calls, parsed.spread) else 1)
