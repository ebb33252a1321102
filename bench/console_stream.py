"""Live console streams under SMS load: 50 open `/admin/api/stream` connections (signed in as Priya,
the org-wide pm) while SMS turns arrive at 20 a second, against the same SMS load with no stream.

The gateway runs in this process on a loopback port (uvicorn, real PersonActors in-process, the
offline model, SQLite); the stream clients and the SMS senders run in a child process, so this
process's CPU is the gateway's alone. Each SMS is a new prospect's ("do you have 2 bedroom
apartments?"), so turns run side by side. Prints the event-to-client latency of the `conversation`
events (from the change's time in the feed to its arrival at a client; p50, p95; target p95 <= 1 s)
and the gateway's CPU per SMS turn with and without the streams (target: at most 10% more).

    .venv/bin/python bench/console_stream.py [--streams 50] [--rate 20] [--seconds 15]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.measure import pct  # noqa: E402


async def clients(base: str, secret: str, streams: int, rate: float, seconds: float) -> dict[str, object]:
    """The child's side: open the streams, send the SMS, and time each event's arrival."""
    from gateway.cli.sms import send_sms
    from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, YALE

    latencies: list[float] = []
    headers = {"Authorization": f"Bearer {secret}"}

    async def listen(http: httpx.AsyncClient) -> None:
        async with http.stream("GET", base + "/admin/api/stream", headers=headers) as answer:
            event = ""
            async for line in answer.aiter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("id: ") and event in ("", "conversation"):
                    at = datetime.fromisoformat(line[4:].split("#", 1)[0])
                    latencies.append(time.time() - at.timestamp())

    async def sms(http: httpx.AsyncClient, n: int) -> bool:
        sent = await send_sms(http, base_url=base, auth_token=AUTH_TOKEN, from_=f"+1415555{n:04d}", to=YALE,
                              body="hi, do you have any 2 bedroom apartments available?", account_sid=ACCOUNT_SID)
        return sent.status_code == 200

    limits = httpx.Limits(max_connections=streams + 200)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        listeners = [asyncio.create_task(listen(http)) for _ in range(streams)]
        await asyncio.sleep(1.0)
        started, total = time.perf_counter(), int(rate * seconds)
        tasks = []
        for n in range(total):
            await asyncio.sleep(max(0.0, started + n / rate - time.perf_counter()))
            tasks.append(asyncio.create_task(sms(http, n)))
        ok = sum(await asyncio.gather(*tasks))
        elapsed = time.perf_counter() - started
        await asyncio.sleep(2.0)
        for task in listeners:
            task.cancel()
    return {"sent": total, "ok": ok, "elapsed_s": elapsed, "latencies": latencies}


async def serve_and_measure(streams: int, rate: float, seconds: float) -> dict[str, object]:
    """Run the gateway here, the clients in a child; this process's CPU over the SMS phase."""
    from desk.portfolio.demo import seed
    from spine.admin_access import issue_token
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore
    from tests.support.console_server import serve_console

    with tempfile.TemporaryDirectory() as tmp:
        spine = Spine(SqliteStore(Path(tmp) / "stream.db"))
        await seed(spine)
        secret, record = issue_token("p_priya", timedelta(hours=1))
        await spine.put_admin_token(record)
        async with serve_console(spine) as base:
            cpu = time.process_time()
            child = await asyncio.create_subprocess_exec(
                sys.executable, __file__, "--clients", base, "--secret", secret, "--streams", str(streams),
                "--rate", str(rate), "--seconds", str(seconds), stdout=subprocess.PIPE)
            out, _ = await child.communicate()
            used = time.process_time() - cpu
        await spine.store.close()
    result = json.loads(out)
    result["cpu_ms_per_sms"] = used * 1000 / max(1, result["ok"])
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=50)
    parser.add_argument("--rate", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--clients", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--secret", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clients:
        print(json.dumps(asyncio.run(clients(args.clients, args.secret, args.streams, args.rate, args.seconds))))
        return 0
    bare = asyncio.run(serve_and_measure(0, args.rate, args.seconds))
    live = asyncio.run(serve_and_measure(args.streams, args.rate, args.seconds))
    lat = [x * 1000 for x in live["latencies"]]  # type: ignore[attr-defined]
    p95 = pct(lat, 95) if lat else float("inf")
    extra = live["cpu_ms_per_sms"] / bare["cpu_ms_per_sms"] - 1  # type: ignore[operator]
    for name, r in (("no streams", bare), (f"{args.streams} streams", live)):
        print(f"{name:12}: {r['ok']}/{r['sent']} SMS answered in {r['elapsed_s']:.1f} s, "
              f"gateway CPU {r['cpu_ms_per_sms']:.1f} ms per SMS turn")
    print(f"event to client (conversation events, {len(lat)} deliveries): p50 {pct(lat, 50) if lat else 0:.0f} ms, "
          f"p95 {p95:.0f} ms (target <= 1000 ms: {'met' if p95 <= 1000 else 'NOT met'})")
    print(f"CPU per SMS turn with the streams: {extra * 100:+.1f}% (target <= +10%: {'met' if extra <= 0.10 else 'NOT met'})")
    return 0 if p95 <= 1000 and extra <= 0.10 else 1


if __name__ == "__main__":
    raise SystemExit(main())
