"""`gateway import` at the size of a real portfolio, on SQLite and on DynamoDB (moto), in one run.

Generates 100 properties, 10,000 units, 15,000 people, 12,000 residents, 500 vendors (each with a
contact), 30 staff, 5,000 work orders and 200 on-call rows into a temp folder, then on each store:
  * the first import into a fresh store: rows/s (target >= 2,000) and the process's peak RSS
    (target < 300 MB);
  * the second import of the same files, all unchanged: rows/s (target >= 10,000);
  * a --sync with 5% of the residents gone: it must end exactly those roles.
moto runs as its own process (`moto_server`), so its work is not counted against the import's; it
scans its whole table on every query, so the DynamoDB run uses a smaller portfolio (--dynamodb-units).

    .venv/bin/python bench/import.py [--units 10000] [--dynamodb-units 2000] [--skip-dynamodb]
"""
from __future__ import annotations

import argparse
import asyncio
import csv
import os
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from desk.portfolio.files import SPECS, FileKind
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.repo import Spine
from spine.store.base import Store
from spine.store.dynamodb import DynamoStore
from spine.store.sqlite import SqliteStore


def _phone(n: int, area: int = 206) -> str:
    return f"+1{area}{201 + n // 10_000}{n % 10_000:04d}"


def generate(folder: Path, units: int) -> dict[FileKind, list[list[str]]]:
    """The portfolio, scaled by `units` (10,000: the issue's size)."""
    scale = units / 10_000
    n_props, n_people, n_res = max(1, int(100 * scale)), int(15_000 * scale), int(12_000 * scale)
    n_vendors, n_staff, n_wo = max(1, int(500 * scale)), max(1, int(30 * scale)), int(5_000 * scale)
    t: dict[FileKind, list[list[str]]] = {
        FileKind.ORGANIZATIONS: [[f"O{o}", f"Org {o}"] for o in range(5)],
        FileKind.PROPERTIES: [[f"P{p}", f"O{p % 5}", f"Property {p}", _phone(p, 425), f"p{p}@pm.example",
                               "America/Chicago", f"{p} Main St"] for p in range(n_props)],
        FileKind.UNITS: [[f"U{u}", f"P{u % n_props}", str(100 + u // n_props), str(u % 4), "1.5", "1950",
                          "2027-01-01" if u % 20 == 0 else ""] for u in range(units)],
        FileKind.PEOPLE: [[f"E{e}", f"First{e}", f"Last{e}", _phone(e), f"e{e}@mail.example" if e % 3 else "", "en", ""]
                          for e in range(n_people)],
        FileKind.RESIDENTS: [[f"R{r}", f"E{r}", f"U{r % units}", "primary" if r < units else "roommate", "2025-01-01", ""]
                             for r in range(n_res)],
        FileKind.STAFF: [[f"S{s}", f"E{n_res + s}", "pm" if s % 3 else "maintenance", f"O{s % 5}", ""]
                         for s in range(n_staff)],
        FileKind.VENDORS: [[f"V{v}", f"Vendor {v}", _phone(v, 312), "", "plumbing", f"P{v % n_props};P{(v + 1) % n_props}"]
                           for v in range(n_vendors)],
        FileKind.VENDOR_CONTACTS: [[f"C{v}", f"V{v}", f"E{n_res + n_staff + v}"] for v in range(n_vendors)],
        FileKind.WORK_ORDERS: [[f"W{w}", f"WO-{10_000 + w}", f"P{w % n_props}", f"U{w % units}", "leak",
                                "under the sink", "open", "normal", f"V{w % n_vendors}", f"E{w % units}"] for w in range(n_wo)],
        FileKind.ONCALL: [[f"P{p}", str(level), f"E{n_res + (p + level) % n_staff}", "300", "2"]
                          for p in range(n_props) for level in (1, 2)],
    }
    write(folder, t)
    return t


def write(folder: Path, tables: dict[FileKind, list[list[str]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for kind, rows in tables.items():
        with (folder / kind.filename).open("w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(SPECS[kind].names)
            writer.writerows(rows)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


CPU: dict[str, float] = {}  # the last import's CPU seconds (this process): a figure contention moves less


async def timed(spine: Spine, folder: Path, **options: bool) -> tuple[float, dict[str, tuple[int, ...]]]:
    start, cpu = time.perf_counter(), time.process_time()
    result = await import_portfolio(spine, folder, ImportOptions(**options))
    seconds = time.perf_counter() - start
    CPU["last"] = time.process_time() - cpu
    counts = {r.file: (r.created, r.updated, r.unchanged, r.ended, len(r.errors)) for r in result.report.files}
    if result.report.failed:
        raise SystemExit(f"rows failed: {result.report.lines()[:5]}")
    return seconds, counts


async def run_store(name: str, store: Store, folder: Path, tables: dict[FileKind, list[list[str]]]) -> None:
    spine = Spine(store)
    rows = sum(len(r) for r in tables.values())
    rss_before = peak_rss_mb()
    first, counts = await timed(spine, folder)
    created = sum(c[0] for c in counts.values())
    print(f"{name}: first import  {rows:,} rows in {first:6.1f} s = {rows / first:8,.0f} rows/s "
          f"(target >= 2,000; {rows / CPU['last']:,.0f} rows per CPU second); {created:,} created; peak RSS {peak_rss_mb():.0f} MB (before {rss_before:.0f} MB; "
          "target < 300 MB)")
    second, counts = await timed(spine, folder)
    unchanged = sum(c[2] for c in counts.values())
    print(f"{name}: second import {rows:,} rows in {second:6.1f} s = {rows / second:8,.0f} rows/s "
          f"(target >= 10,000; {rows / CPU['last']:,.0f} rows per CPU second); {unchanged:,} unchanged, {sum(c[0] + c[1] for c in counts.values())} written; "
          f"{first / second:.1f}x the first")
    residents = tables[FileKind.RESIDENTS]
    gone = residents[::20]  # 5%
    synced = dict(tables)
    synced[FileKind.RESIDENTS] = [r for i, r in enumerate(residents) if i % 20]
    sync_folder = folder.parent / f"{folder.name}-sync-{name}"
    write(sync_folder, synced)
    seconds, counts = await timed(spine, sync_folder, sync=True)
    ended = counts["residents.csv"][3]
    still = [r[0] for r in gone if any(role.id == f"tr_pms_{r[0]}" for role in await spine.roles_of(f"p_pms_{r[1]}"))]
    print(f"{name}: sync, {len(gone)} residents gone: {ended} ended in {seconds:.1f} s; roles of the gone still "
          f"active: {len(still)}; {'exactly those' if ended == len(gone) and not still else 'MISMATCH'}")
    await store.close()


def start_moto() -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    moto = Path(sys.executable).parent / "moto_server"
    proc = subprocess.Popen([str(moto), "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=1).read()
            break
        except OSError:
            time.sleep(0.1)
    return proc, url


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", type=int, default=10_000)
    parser.add_argument("--dynamodb-units", type=int, default=2_000,
                        help="moto scans its whole table on every query, so it runs a smaller portfolio")
    parser.add_argument("--skip-dynamodb", action="store_true")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="clara-import-bench-"))
    try:
        start = time.perf_counter()
        tables = generate(tmp / "portfolio", args.units)
        print(f"generated {sum(len(r) for r in tables.values()):,} rows "
              f"({', '.join(f'{k.value} {len(r):,}' for k, r in tables.items())}) in {time.perf_counter() - start:.1f} s")
        await run_store("sqlite", SqliteStore(tmp / "clara.db"), tmp / "portfolio", tables)
        if args.skip_dynamodb:
            return
        os.environ.update({"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                           "AWS_DEFAULT_REGION": "us-east-1"})
        proc, url = start_moto()
        try:
            store = DynamoStore(table=f"bench-{uuid.uuid4().hex[:8]}", endpoint_url=url, create_missing=True,
                                timeout_s=60)
            small = generate(tmp / "portfolio-small", args.dynamodb_units)
            print(f"dynamodb: a portfolio of {args.dynamodb_units:,} units, {sum(len(r) for r in small.values()):,} rows")
            await run_store("dynamodb (moto)", store, tmp / "portfolio-small", small)
        finally:
            proc.terminate()
            proc.wait()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    asyncio.run(main())
