"""The Buildium sync at the size of a real account, behind the stand-in (issue 36's figures).

A 10,000-unit account (about 12,000 tenants, 10,000 leases, 300 vendors:
tests/support/buildium_helpers.large_account) is served by the Buildium stand-in in its own
process (its contract checks cost CPU that is not the gateway's), each request held 50-150 ms, at
most 10 requests a second (429 past it); it checks each operation's first response against
Buildium's document (every request, and every response in the tests). Printed:
  * the rate-limit bound: the full sync's requests / 10 per second;
  * the import-apply bound: the same records mapped and applied with no HTTP (an in-memory client,
    in a process of its own, just before the HTTP sync);
  * the actual full sync (fetching and applying overlap: gateway.pms.buildium.sync) and its ratio to
    the slower bound (target within 1.25x); this process's peak RSS (target < 300 MB);
  * a second full sync (nothing to write) and an incremental sync after 100 changes: requests, time;
  * webhook -> role ended, p50/p99 over `--webhooks` move-outs: the signed POST answered and worked
    until a fresh derivation (tools.authority, what routing reads) no longer has the tenant role; a
    warm PersonActor sees it within its staleness bound (5 s) after that.

    .venv/bin/python bench/pms_sync.py [--units 10000] [--webhooks 50]
"""
from __future__ import annotations

import argparse
import asyncio
import logging
import multiprocessing as mp
import os
import resource
import sys
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.measure import pct
from bench.pms_sync_parts import InMemoryClient, run_webhooks, serve_account
from gateway.pms.buildium.client import BuildiumClient
from gateway.pms.buildium.sync import sync
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.buildium_helpers import large_account
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET

ORG = "org_buildium"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def fresh_spine(folder: Path, name: str) -> Spine:
    return Spine(SqliteStore(str(folder / f"{name}.db")))


def apply_bound(conn: Connection, units: int, folder: str) -> None:
    """The same account mapped and applied with no HTTP, in its own process (its records in memory
    would count against the HTTP sync's peak RSS): (seconds, CPU seconds) sent back."""
    async def run() -> tuple[float, float]:
        spine = fresh_spine(Path(folder), "apply")
        memory = InMemoryClient(large_account(units))
        started, cpu = time.perf_counter(), time.process_time()
        await sync(spine, memory, organization=ORG, full=True)  # type: ignore[arg-type]  # the client's interface
        took = (time.perf_counter() - started, time.process_time() - cpu)
        await spine.store.close()
        return took
    conn.send(asyncio.run(run()))


def measure_apply(units: int, folder: Path) -> tuple[float, float]:
    ours, theirs = mp.Pipe()
    child = mp.get_context("fork").Process(target=apply_bound, args=(theirs, units, str(folder)))
    child.start()
    took: tuple[float, float] = ours.recv()
    child.join()
    return took


async def measure(args: argparse.Namespace, url: str, ask: Any, folder: Path) -> None:
    apply_s, apply_cpu = measure_apply(args.units, folder)  # just before the HTTP sync: the same machine load
    baseline = peak_rss_mb()
    spine = fresh_spine(folder, "http")
    client = BuildiumClient(url, CLIENT_ID, CLIENT_SECRET)
    cpu = time.process_time()
    full = await sync(spine, client, organization=ORG, full=True)
    full_cpu, rss = time.process_time() - cpu, peak_rss_mb()
    assert not full.report.failed, full.report.errors[:5]
    rate_bound = full.requests / 10.0
    second = await sync(spine, client, organization=ORG, full=True)
    ask(("change", 100))
    incremental = await sync(spine, client, organization=ORG, full=False)
    latencies = await run_webhooks(spine, client, ask, args.webhooks)
    await client.aclose()
    await spine.store.close()
    slower = max(rate_bound, apply_s)
    print(f"full sync: {full.requests} requests, {full.seconds:.1f} s ({full_cpu:.1f} CPU s); rate-limit bound "
          f"{rate_bound:.1f} s, import-apply bound {apply_s:.1f} s ({apply_cpu:.1f} CPU s): "
          f"{full.seconds / slower:.2f}x the slower (target <= 1.25x; in CPU seconds {full_cpu / apply_cpu:.2f}x); "
          f"{full.report.writes:,} writes; peak RSS {rss:.0f} MB (target < 300 MB; {baseline:.0f} MB before the sync)")
    print(f"second full sync: {second.requests} requests, {second.seconds:.1f} s, {second.report.writes} writes")
    print(f"incremental sync after 100 changes: {incremental.requests} requests, {incremental.seconds:.1f} s, "
          f"{incremental.report.writes} writes, ended {sum(c['ended'] for c in incremental.report.counts().values())}")
    print(f"webhook -> role ended in routing ({len(latencies)} move-outs): p50 {pct(latencies, 50) * 1000:.0f} ms, "
          f"p99 {pct(latencies, 99) * 1000:.0f} ms (+ at most 5 s for a warm PersonActor's staleness bound)")
    print(f"machine load average (1 min) at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")


def main() -> None:
    logging.getLogger("clara").setLevel(logging.ERROR)  # one event line per webhook otherwise
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--webhooks", type=int, default=50)
    args = parser.parse_args()
    ours, theirs = mp.Pipe()
    server = mp.get_context("fork").Process(target=serve_account, args=(theirs, args.units), daemon=True)
    server.start()
    url = ours.recv()

    def ask(command: tuple[str, Any]) -> Any:
        ours.send(command)
        return ours.recv()

    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(args, url, ask, Path(folder)))
    print(f"stand-in: {ask(('stats', None))}")
    ask(("stop", None))
    server.join(timeout=10)


if __name__ == "__main__":
    main()
