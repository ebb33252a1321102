"""The staff console's pages at scale, side by side on the two stores.

SQLite: 10,000 escalations over three properties, 10,000 work orders over the three (their board
copies), and 100,000 messages over 2,000 people (the reports' rollups counted as they are written), then
each console page and JSON route answered in-process (the real app through httpx's ASGI
transport, signed in as Priya, the org-wide pm) many times: p50 and p95 (target p95 < 200 ms).

DynamoDB on moto (loopback): the same routes over a smaller load (moto takes milliseconds per
write), with every request that reaches DynamoDB counted by its X-Amz-Target at the server, so
each page shows what it asks of the table: its Query and GetItem calls, and no Scan.

    .venv/bin/python bench/console.py [--escalations 10000] [--work-orders 10000] [--messages 100000] [--rounds 40]
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import threading
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from bench.measure import pct  # noqa: E402
from desk.portfolio.demo import seed  # noqa: E402
from gateway.app import create_app  # noqa: E402
from gateway.context import GatewayContext  # noqa: E402
from gateway.settings import Settings  # noqa: E402
from spine.admin_access import issue_token  # noqa: E402
from spine.context import Channel  # noqa: E402
from spine.conversation import Author, Conversation, ConversationMessage  # noqa: E402
from spine.escalation import Escalation, EscalationStatus  # noqa: E402
from spine.identity import utcnow  # noqa: E402
from spine.repo import Spine  # noqa: E402
from spine.work import WorkOrder, WorkOrderStatus  # noqa: E402

PROPERTIES = [("pf_yale", "org_propflow"), ("pf_beacon", "org_propflow"), ("pf_capitol", "org_capitol")]
PER_PERSON = 50
ROUTES = ["/admin/api/tools",  # the baseline: signing in and deriving the scope, no console read
          "/admin/api/escalations", "/admin/api/escalations?status=open", "/admin/api/escalations?property_id=pf_yale",
          "/admin/escalations", "/admin/api/conversations", "/admin/conversations",
          "/admin/api/conversations/p_marcus", "/admin/conversations/p_marcus",
          "/admin/api/work_orders", "/admin/api/work_orders?status=open", "/admin/api/work_orders?property_id=pf_yale",
          "/admin/api/work_orders?property_id=pf_yale&status=completed&priority=urgent", "/admin/work-orders",
          "/admin/api/work_orders/WO-7", "/admin/work-orders/WO-7",
          "/admin/api/reports?days=30", "/admin/api/reports?property_id=pf_yale&days=30&format=csv", "/admin/reports"]
TARGET_MS = 200.0


class NoPool:
    async def submit(self, envelope: Any) -> Any:
        raise RuntimeError("the console bench runs no turns")

    async def actors(self) -> list[Any]:
        return []

    async def host_names(self) -> list[str]:
        return []


async def load_work_orders(spine: Spine, count: int) -> None:
    """Work orders over the three properties, statuses and priorities mixed, each written as a tool
    writes one (Spine.put_work_order: the record, its board copies, the feed, the rollups)."""
    now, statuses, priorities = utcnow(), list(WorkOrderStatus), ["normal", "normal", "urgent", "emergency"]
    for n in range(count):
        prop, _ = PROPERTIES[n % 3]
        await spine.put_work_order(WorkOrder(
            id=f"wo_{100000 + n}", display_id=f"WO-{100000 + n}", property_id=prop, brief=f"bench job {n}",
            status=statuses[n % len(statuses)], priority=priorities[n % 4], created_at=now - timedelta(seconds=n)))


async def load(spine: Spine, escalations: int, messages: int, work_orders: int = 0) -> None:
    """Escalations over three properties (a third urgent, statuses mixed), work orders, and
    messages over people of Yale, each with a conversation head; Marcus has PER_PERSON of them."""
    await load_work_orders(spine, work_orders)
    now, statuses = utcnow(), [EscalationStatus.OPEN, EscalationStatus.ACKNOWLEDGED, EscalationStatus.RESOLVED]
    for n in range(escalations):
        prop, org = PROPERTIES[n % 3]
        await spine.put_escalation(Escalation(
            id=f"esc_b{n:06d}", org_id=org, property_id=prop, person_id="p_marcus" if n % 2 else None, channel="sms",
            interaction_id=f"ix_b{n:06d}", reason=f"reason {n}", urgency="urgent" if n % 3 == 0 else "normal",
            summary="a summary a PM reads", status=statuses[n % 3], created_at=now - timedelta(seconds=n)))
    people = ["p_marcus", *(f"p_bench_{i:05d}" for i in range(max(0, messages // PER_PERSON - 1)))]
    for i, pid in enumerate(people):
        for m in range(PER_PERSON):
            at = now - timedelta(minutes=i, seconds=PER_PERSON - m)
            await spine.put_message(ConversationMessage(
                id=f"m_{i}_{m}", person_id=pid, property_id="pf_yale" if i % 2 else "pf_beacon", at=at,
                channel=Channel.SMS, author=Author.PERSON if m % 2 == 0 else Author.CLARA, text=f"message {m}",
                interaction_id=f"ix_{i}_{m // 2}"))
        prop = "pf_yale" if i % 2 else "pf_beacon"
        await spine.change_conversation(pid, prop, lambda head, pid=pid, at=at, prop=prop: Conversation(
            person_id=pid, name=pid, property_id=prop, roles=["tenant"], last_channel=Channel.SMS, last_at=at))


async def measure(spine: Spine, rounds: int, counted: Counter[str] | None = None) -> dict[str, dict[str, Any]]:
    context = GatewayContext(Settings(admin_token="bench-operator"), spine, NoPool())  # type: ignore[arg-type]
    secret, record = issue_token("p_priya", timedelta(hours=1))
    await spine.put_admin_token(record)
    headers = {"Authorization": f"Bearer {secret}"}
    results: dict[str, dict[str, Any]] = {}
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)),
                                 base_url="http://bench.test") as client:
        for route in ROUTES:
            (await client.get(route, headers=headers)).raise_for_status()  # warm (reference cache)
            before = Counter(counted) if counted is not None else Counter()
            times = []
            for _ in range(rounds):
                started = time.perf_counter()
                answer = await client.get(route, headers=headers)
                times.append((time.perf_counter() - started) * 1000)
                answer.raise_for_status()
            calls = {k: (v - before[k]) / rounds for k, v in (counted or Counter()).items() if v - before[k]}
            results[route] = {"p50": pct(times, 50), "p95": pct(times, 95), "calls": calls}
    await context.http.aclose()
    return results


def report(title: str, results: dict[str, dict[str, Any]], *, calls: bool) -> None:
    print(title)
    for route, r in results.items():
        ok = "" if calls else " (met)" if r["p95"] < TARGET_MS else " (NOT met)"
        extra = "   " + ", ".join(f"{k} {v:.1f}" for k, v in sorted(r["calls"].items())) + \
            f"   Scan {r['calls'].get('Scan', 0):.0f}" if calls else ""
        print(f"  {route:48} p50 {r['p50']:7.2f} ms  p95 {r['p95']:7.2f} ms{ok}{extra}")


async def sqlite_run(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    from spine.store.sqlite import SqliteStore

    with tempfile.TemporaryDirectory() as tmp:
        spine = Spine(SqliteStore(Path(tmp) / "console.db"))
        await seed(spine)
        started = time.perf_counter()
        await load(spine, args.escalations, args.messages, args.work_orders)
        print(f"SQLite: loaded {args.escalations} escalations, {args.work_orders} work orders and {args.messages} "
              f"messages in "
              f"{time.perf_counter() - started:.0f} s")
        results = await measure(spine, args.rounds)
        await spine.store.close()
    return results


def counting_moto() -> tuple[Any, Counter[str]]:
    """moto's server on loopback, counting each DynamoDB operation it is asked for."""
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
    from werkzeug.serving import make_server

    from tests.support.moto_server import AWS_ENV, MotoServer, _warm_up, one_request_at_a_time

    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    counted: Counter[str] = Counter()
    app = one_request_at_a_time(DomainDispatcherApplication(create_backend_app))

    def counting(environ: dict[str, Any], start_response: Any) -> Any:
        counted[environ.get("HTTP_X_AMZ_TARGET", "?").rsplit(".", 1)[-1]] += 1
        return app(environ, start_response)

    server = make_server("127.0.0.1", 0, counting, threaded=True, request_handler=MotoRequestHandler)
    threading.Thread(target=server.serve_forever, name="moto", daemon=True).start()
    host, port = server.server_address[:2]
    endpoint = f"http://{host}:{port}"
    _warm_up(endpoint)
    import os
    os.environ.update(AWS_ENV)
    return MotoServer(server=server, thread=threading.current_thread(), endpoint_url=endpoint), counted


async def dynamo_run(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    from spine.store.dynamodb import DynamoStore

    moto, counted = counting_moto()
    spine = Spine(DynamoStore(table="console-bench", endpoint_url=moto.endpoint_url, create_missing=True))
    await seed(spine)
    started = time.perf_counter()
    await load(spine, args.dynamo_escalations, args.dynamo_messages, args.dynamo_work_orders)
    print(f"DynamoDB (moto): loaded {args.dynamo_escalations} escalations, {args.dynamo_work_orders} work orders and "
          f"{args.dynamo_messages} messages in "
          f"{time.perf_counter() - started:.0f} s")
    results = await measure(spine, max(5, args.rounds // 4), counted)
    await spine.store.close()
    moto.server.shutdown()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--escalations", type=int, default=10_000)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--work-orders", type=int, default=10_000)
    parser.add_argument("--dynamo-work-orders", type=int, default=600)
    parser.add_argument("--dynamo-escalations", type=int, default=600)
    parser.add_argument("--dynamo-messages", type=int, default=2_000)
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    sqlite = asyncio.run(sqlite_run(args))
    report("SQLite, signed in as Priya (org-wide pm: Yale and Beacon):", sqlite, calls=False)
    dynamo = asyncio.run(dynamo_run(args))
    report("DynamoDB on moto (loopback, milliseconds per call), DynamoDB operations per request, sign-in "
           "and scope included:", dynamo, calls=True)
    scans = sum(r["calls"].get("Scan", 0) for r in dynamo.values())
    met = all(r["p95"] < TARGET_MS for r in sqlite.values()) and scans == 0
    print(f"console pages p95 < {TARGET_MS:.0f} ms on SQLite and no Scan on DynamoDB: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
