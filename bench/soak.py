"""Soak: steady, bounded loopback load for `--minutes`, and what each process holds over time.

The same deployment and mixed load as bench/chaos.py (bench/chaos_rig.py, bench/chaos_load.py:
SMS, email, Telegram, calls with a server tool; closed-loop senders, so the load is bounded by
their number and think time), no faults. Every `--sample-s` (default 60) it reads, for each
GatewayIngress replica, PersonActor host, the DispatcherActor and the reconciler (pids from Ray's
GCS actor table): resident memory (VmRSS in /proc/<pid>/status) and open file descriptors
(/proc/<pid>/fd), and for the actors the Python heap in allocator blocks (sys.getallocatedblocks,
asked of the actor itself: cheap, no tracing left running; the replicas expose no such call, so
they show RSS and descriptors only). Prints the table, then each process's growth from the end
of the warm-up (the first `--warmup-min` minutes) to the last sample. Target: at most 5%.

    .venv/bin/python bench/soak.py [--minutes 30] [--warmup-min 5] [--sample-s 60] [--store sqlite|dynamodb]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.chaos_load import MixedLoad, add_load_arguments  # noqa: E402
from bench.chaos_rig import APP, Rig  # noqa: E402

TARGET = 0.05
FIGURES = ("rss_mib", "fds", "heap_kblocks")


def processes() -> dict[str, int]:
    """Short name -> pid of every live gateway process (the GCS actor table; no dashboard needed)."""
    from ray._private import state

    found = {}
    for actor in state.actors().values():
        name = actor.get("Name") or ""
        if actor["State"] != "ALIVE":
            continue
        if name.startswith(f"SERVE_REPLICA::{APP}#GatewayIngress#"):
            found["replica-" + name.rsplit("#", 1)[-1][:4]] = actor["Pid"]
        elif name.startswith("clara-"):  # the rig's private Ray holds one gateway namespace
            found[name.removeprefix("clara-")] = actor["Pid"]
    return found


def proc_figures(pid: int) -> dict[str, float]:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        rss_kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
        return {"rss_mib": rss_kb / 1024, "fds": len(os.listdir(f"/proc/{pid}/fd"))}
    except (OSError, StopIteration):
        return {}


async def heap_kblocks(namespace: str, short: str) -> float | None:
    import ray

    if short.startswith("replica-"):
        return None
    try:
        handle = ray.get_actor(f"clara-{short}", namespace=namespace)
        return await asyncio.wait_for(handle.heap_blocks.remote(), 10.0) / 1000
    except Exception:  # noqa: BLE001 - an actor of an older build, or busy: the column stays empty
        return None


async def sample(namespace: str) -> dict[str, dict[str, float]]:
    row = {}
    for short, pid in sorted(processes().items()):
        # the heap first: its call opens this bench's own connection into the actor, which the
        # descriptors of every sample then count alike
        heap = await heap_kblocks(namespace, short)
        figures = proc_figures(pid)
        if heap is not None:
            figures["heap_kblocks"] = heap
        row[short] = figures
    return row


async def soak(rig: Rig, load: MixedLoad, args) -> list[tuple[float, dict]]:
    load.start()
    started, samples = time.monotonic(), []
    ends = started + args.minutes * 60
    while True:
        samples.append((time.monotonic() - started, await sample(rig.namespace)))
        m = samples[-1]
        print(f"[{m[0] / 60:5.1f} min] " + "  ".join(f"{k} {v.get('rss_mib', 0):.0f}MiB/{v.get('fds', 0):.0f}fd"
                                                   for k, v in m[1].items()), flush=True)
        if time.monotonic() + args.sample_s > ends + 1:
            break
        await asyncio.sleep(args.sample_s)
    await load.stop()
    return samples


def report(samples: list[tuple[float, dict]], load: MixedLoad, args) -> bool:
    names = sorted({n for _, row in samples for n in row})
    print(f"\nsoak: {args.minutes:.0f} min of steady mixed load ({len(load.messages)} messages, {len(load.calls)} voice "
          f"webhooks; {sum(m.statuses[-1:] == [200] for m in load.messages)} answered 200)")
    print(f"{'min':>5}  " + "".join(f"{n[:16]:>24}" for n in names))
    print(f"{'':5}  " + "".join(f"{'RSS MiB  fds  heap kblk':>24}" for _ in names))
    for at, row in samples:
        cells = [row.get(n, {}) for n in names]
        print(f"{at / 60:5.1f}  " + "".join(
            f"{c.get('rss_mib', float('nan')):>10.1f}{c.get('fds', float('nan')):>5.0f}{c.get('heap_kblocks', float('nan')):>9.1f}"
            for c in cells))
    warm = [s for s in samples if s[0] >= args.warmup_min * 60]
    if len(warm) < 2:
        print("too short to judge growth after the warm-up")
        return False
    first, last = warm[0][1], warm[-1][1]
    ok = True
    print(f"growth from {warm[0][0] / 60:.1f} to {warm[-1][0] / 60:.1f} min (target <= {TARGET:.0%}):")
    for name in names:
        parts = []
        for figure in FIGURES:
            a, b = first.get(name, {}).get(figure), last.get(name, {}).get(figure)
            if a and b is not None:
                growth = (b - a) / a
                ok &= growth <= TARGET
                parts.append(f"{figure} {growth:+.1%}")
        print(f"  {name:20} " + (", ".join(parts) or "(not sampled at both ends: restarted?)"))
    print(f"target (each figure grows at most {TARGET:.0%} after the warm-up): {'met' if ok else 'NOT met'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--warmup-min", type=float, default=5.0)
    parser.add_argument("--sample-s", type=float, default=60.0)
    add_load_arguments(parser, sms=4, email=1, telegram=1, voice=1, think_s=1.0)
    args = parser.parse_args()
    os.environ.setdefault("RAY_SERVE_PROXY_READY_CHECK_TIMEOUT_S", "60")
    rig = Rig(args.store)
    try:
        secrets = rig.start(args.sms, args.voice)
        load = MixedLoad(secrets, rig.sms_phones, rig.voice_phones, args.email, args.telegram, args.think_s)
        samples = asyncio.run(soak(rig, load, args))
    finally:
        rig.stop()
    return 0 if report(samples, load, args) else 1


if __name__ == "__main__":
    sys.exit(main())
