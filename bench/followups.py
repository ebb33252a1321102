"""Follow-ups at volume, with the scheduler killed mid-run: every step sent exactly once, the due
steps found by one index Query per tick, and the scheduler's CPU per step beside paging's.

Setup (SQLite, one file): 100 bench properties (zone UTC), 100 people each with their own phone, one
completed work order each, and so 10,000 pending close-out follow-ups due over `--spread-s`
seconds of a shifted clock (the scheduler's clock is the wall clock moved to 12:00 UTC, inside the
contact window). Twilio's REST API is the local stand-in. The scheduler's tick (the same `Ladders`
the PagingScheduler actor runs: follow-ups, then the outbox sender) runs in a child process; it is
SIGKILLed once it has taken `--kill-at` of the steps and a second one started, as Ray restarts the actor. At the end:

  * duplicated: a person whose phone received their close-out more than once;
  * skipped: a follow-up not `sent`, or a person whose phone never received it;
  * queries per tick on the `FOLLOWUPS#pending` index (one Query per shard, keys.FOLLOWUP_SHARDS; the
    store has no Scan);
  * the scheduler's CPU per follow-up step (the restarted process, sends included), and, measured
    here in-process on the same store kind, CPU per on-call ladder step and per follow-up step
    without sends (the same work a tick does, without Twilio).

    .venv/bin/python bench/followups.py [--properties 100] [--people 100] [--spread-s 20] [--kill-at 0.4]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from spine.keys import FOLLOWUP_SHARDS, followups_with_status  # noqa: E402 - after the path is set

AUTH_TOKEN, ACCOUNT_SID = "bench-twilio-token", "AC" + "f" * 32
TICK_S = 0.5


def noon_offset_s() -> float:
    """How far the scheduler's clock runs ahead of the wall: to today's (or tomorrow's) 12:00 UTC."""
    now = datetime.now(UTC)
    noon = now.replace(hour=12, minute=0, second=0, microsecond=0)
    return (noon - now).total_seconds() if noon > now else (noon + timedelta(days=1) - now).total_seconds()


def phone(p: int, n: int) -> str:
    return f"+1509{p:03d}{n:04d}"


async def build(db: Path, properties: int, people: int, start: datetime, spread_s: float) -> int:
    from spine.followup import Follows, FollowUp, FollowUpKind, StopOn
    from spine.identity import Claim, ClaimKind, Person
    from spine.property import Organization, Property
    from spine.repo import Spine
    from spine.repo.items import claim_item, person_item, work_order_item
    from spine.store.sqlite import SqliteStore
    from spine.work import WorkOrder, WorkOrderStatus

    spine = Spine(SqliteStore(db))
    await spine.put_org(Organization(id="org_bench", name="Bench"))
    total, n = properties * people, 0
    for p in range(properties):
        await spine.put_property(Property(id=f"pf_b{p:03d}", org_id="org_bench", name=f"Bench {p}",
                                          sms_number=f"+1425{p:03d}0100", timezone="UTC"))
        items, followups = [], []
        for i in range(people):
            person = Person(id=f"p_b{p:03d}_{i:03d}", display_name=f"Tenant {p}-{i}",
                            claims=[Claim(kind=ClaimKind.PHONE, value=phone(p, i))])
            wo = WorkOrder(id=f"wo_b{p:03d}_{i:03d}", display_id=f"WO-{p * 1000 + i}", property_id=f"pf_b{p:03d}",
                           brief="leak", status=WorkOrderStatus.COMPLETED, created_by_person_id=person.id)
            items += [person_item(person), claim_item(ClaimKind.PHONE, phone(p, i), person.id), work_order_item(wo)]
            due = start + timedelta(seconds=spread_s * n / total)
            followups.append(FollowUp(id=f"{wo.id}-closeout-1", person_id=person.id, property_id=wo.property_id,
                                      kind=FollowUpKind.WORK_ORDER_CLOSEOUT, due_at=due, follows=Follows.WORK_ORDER,
                                      follows_id=wo.id, stop_on=[StopOn.TAKEOVER, StopOn.OPT_OUT, StopOn.RECORD_CHANGED],
                                      answer_within_s=48 * 3600.0))
            n += 1
        await spine.put_items(items)
        for fu in followups:
            await spine.create_followup(fu)
    await spine.store.close()
    return n


class CountingStore:
    """The store, with the scheduler's index Queries counted (what a tick reads to find due steps)."""

    def __init__(self, store) -> None:
        self.store, self.queries = store, Counter()

    def __getattr__(self, name):
        return getattr(self.store, name)

    async def query_index(self, gsi1pk, *args, **kwargs):
        self.queries[gsi1pk] += 1
        return await self.store.query_index(gsi1pk, *args, **kwargs)


async def child(db: str, offset_s: float, twilio_url: str, stats_path: str) -> None:
    """One scheduler process: tick every 0.5 s until killed (SIGKILL) or told to stop (SIGTERM)."""
    from actors.control.scheduler import Ladders
    from gateway.outbox_sender import OutboxSender
    from gateway.settings import Settings
    from spine.identity import utcnow
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    logging.getLogger("clara").setLevel(logging.ERROR)
    store = CountingStore(SqliteStore(Path(db)))
    spine = Spine(store)  # type: ignore[arg-type]
    spine.clock = lambda: utcnow() + timedelta(seconds=offset_s)
    settings = Settings(store_url=f"sqlite:///{db}", twilio_auth_token=AUTH_TOKEN, twilio_account_sid=ACCOUNT_SID,
                        twilio_api_base=twilio_url, public_url="http://127.0.0.1:9")
    ladders = Ladders(spine, OutboxSender(spine, settings))
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    while not stop.is_set():
        began = time.monotonic()
        stats = await ladders.tick(spine.clock())
        pending = sum(n for key, n in store.queries.items() if key.startswith("FOLLOWUPS#pending"))  # every shard
        report = {**stats.model_dump(), "pending_queries": pending,
                  "pending_partitions": len([k for k in store.queries if k.startswith("FOLLOWUPS#pending")])}
        Path(stats_path).write_text(json.dumps(report))
        try:
            await asyncio.wait_for(stop.wait(), max(0.0, TICK_S - (time.monotonic() - began)))
        except TimeoutError:
            pass


def _steps(stats: Path) -> int:
    try:
        return int(json.loads(stats.read_text())["followups"])
    except (OSError, ValueError, KeyError):
        return 0


def spawn(db: Path, offset_s: float, twilio_url: str, stats: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, __file__, "--child", str(db), str(offset_s), twilio_url, str(stats)],
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})


async def audit(db: Path, sent_to: Counter, properties: int, people: int) -> dict:
    from spine.followup import FollowUpStatus
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(db))
    far = datetime.now(UTC) + timedelta(days=400)
    pending = await spine.due_followups(far, limit=100_000)
    sent = await spine.due_followups(far, limit=100_000, status=FollowUpStatus.SENT)
    await spine.store.close()
    phones = [phone(p, i) for p in range(properties) for i in range(people)]
    return {"followups_sent": len(sent), "still_pending": len(pending),
            "duplicated": sum(1 for ph in phones if sent_to[ph] > 1),
            "skipped": sum(1 for ph in phones if sent_to[ph] == 0) + len(pending)}


async def shard_spread(db: Path) -> list[int]:
    """How many follow-ups (any status) each shard of the index holds: the writes spread over them."""
    from spine.followup import FollowUpStatus
    from spine.store.sqlite import SqliteStore

    store = SqliteStore(db)
    counts = [sum([len(await store.query_index(followups_with_status(status, shard))) for status in FollowUpStatus])
              for shard in range(FOLLOWUP_SHARDS)]
    await store.close()
    return counts


async def in_process_cpu(tmp: Path) -> dict:
    """CPU per step of an on-call ladder and of a follow-up, in this process, no sender: the
    tick's own work on each, side by side on the same store kind."""
    from desk.followups.engine import run_due
    from desk.oncall.paging import PageRequest, advance_page, start_page
    from desk.portfolio.demo import seed
    from spine.oncall import OnCallPlan
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    db = tmp / "cpu.db"
    await build(db, 10, 100, datetime(2037, 12, 2, 11, tzinfo=UTC), 60.0)
    spine = Spine(SqliteStore(db))
    await seed(spine)
    spine.clock = lambda: datetime(2037, 12, 2, 12, tzinfo=UTC)
    began, steps = time.process_time(), 0
    while done := await run_due(spine, spine.clock()):
        steps += len(done)
    followup_cpu = (time.process_time() - began) / max(steps, 1)
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]],
                                           ack_timeout_s=5, repeats=1))
    t0 = datetime.now(UTC)
    for n in range(100):
        await start_page(spine, PageRequest(page_id=f"pg_bench_{n}", property_id="pf_yale", reason="gas",
                                            interaction_id=f"ix_bench_{n}"), now=t0)
    began, ladder_steps, now = time.process_time(), 0, t0
    while running := await spine.pages_due(now + timedelta(days=1), limit=500):
        now += timedelta(seconds=5)
        for page, version in [(p, v) for p, v in running if p.next_due <= now]:
            ladder_steps += bool(await advance_page(spine, page, version, now=now))
    paging_cpu = (time.process_time() - began) / max(ladder_steps, 1)
    await spine.store.close()
    return {"followup_steps": steps, "followup_cpu_ms": followup_cpu * 1000, "ladder_steps": ladder_steps,
            "ladder_cpu_ms": paging_cpu * 1000}


async def main(args: argparse.Namespace) -> None:
    from tests.support.twilio_server import TwilioStandIn

    logging.getLogger("clara").setLevel(logging.ERROR)  # one event line per step would bury the figures
    with tempfile.TemporaryDirectory(prefix="clara-bench-followups-") as tmp_name, \
            TwilioStandIn(account_sid=ACCOUNT_SID, auth_token=AUTH_TOKEN) as twilio:
        tmp = Path(tmp_name)
        db, offset = tmp / "clara.db", noon_offset_s()
        start = datetime.now(UTC) + timedelta(seconds=offset + 2)
        built = time.monotonic()
        total = await build(db, args.properties, args.people, start, args.spread_s)
        print(f"{total} pending follow-ups across {args.properties} properties, built in "
              f"{time.monotonic() - built:.1f} s; due over {args.spread_s:.0f} s")
        first, second = tmp / "first.json", tmp / "second.json"
        began = time.monotonic()
        proc = spawn(db, offset, twilio.url, first)
        while _steps(first) < total * args.kill_at:  # mid-run: once this share of the steps is taken
            await asyncio.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed = json.loads(first.read_text()) if first.exists() else {}
        print(f"scheduler SIGKILLed {time.monotonic() - began:.1f} s in, after {killed.get('followups', 0)} steps "
              f"(its last stats written); restarted")
        proc = spawn(db, offset, twilio.url, second)
        while True:
            await asyncio.sleep(1.0)
            report = await audit(db, Counter(s.to for s in twilio.accepted()), args.properties, args.people)
            if (report["still_pending"] == 0 and report["skipped"] == 0) or time.monotonic() - began > args.timeout_s:
                break
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
        after = json.loads(second.read_text())
        report = await audit(db, Counter(s.to for s in twilio.accepted()), args.properties, args.people)
        spread = await shard_spread(db)
        cpu = await in_process_cpu(tmp)
    print(f"sent {report['followups_sent']} of {total} in {time.monotonic() - began:.1f} s: "
          f"duplicated {report['duplicated']}, skipped {report['skipped']}")
    ticks = killed.get("ticks", 0) + after["ticks"]
    queries = killed.get("pending_queries", 0) + after["pending_queries"]
    print(f"due steps found by {queries} Queries on the FOLLOWUPS#pending index in {ticks} ticks "
          f"({queries / max(ticks, 1):.2f} per tick: one per shard, {FOLLOWUP_SHARDS} shards, "
          f"{after.get('pending_partitions', 0)} partitions read), 0 Scans (the store protocol has none)")
    print(f"follow-ups per shard (the index's writes spread over them): {spread}")
    for name, stats in (("killed", killed), ("restarted", after)):
        steps = stats.get("followups", 0)
        per_step = f"{stats['followup_cpu_s'] / steps * 1000:.2f} ms" if steps else "n/a"
        whole = f"{stats['cpu_s'] / steps * 1000:.2f} ms" if steps else "n/a"
        print(f"{name} scheduler: {steps} follow-up steps, {per_step} CPU per step in its follow-up work, "
              f"{whole} per step for the whole tick (the outbox sends to Twilio included)")
    print(f"in-process, no sender: follow-up step {cpu['followup_cpu_ms']:.2f} ms CPU "
          f"({cpu['followup_steps']} steps) vs on-call ladder step {cpu['ladder_cpu_ms']:.2f} ms CPU "
          f"({cpu['ladder_steps']} steps)")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        asyncio.run(child(*sys.argv[2:3], float(sys.argv[3]), *sys.argv[4:6]))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--properties", type=int, default=100)
    parser.add_argument("--people", type=int, default=100)
    parser.add_argument("--spread-s", type=float, default=20.0)
    parser.add_argument("--kill-at", type=float, default=0.4, help="the share of steps taken when it is killed")
    parser.add_argument("--timeout-s", type=float, default=600.0)
    asyncio.run(main(parser.parse_args()))
