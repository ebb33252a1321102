"""Faults under load, measured: steady mixed load while, in turn, each part of the gateway fails.

The gateway as ray_config.yaml deploys it (bench/chaos_rig.py: two GatewayIngress replicas,
PersonActor hosts, the DispatcherActor, the reconciler, GATEWAY_MODEL=anthropic against the
Messages API stand-in; Twilio, Mailgun and Telegram stand-ins) takes closed-loop SMS, email,
Telegram and phone-call load (bench/chaos_load.py) for a warm-up, then for each fault
(bench/chaos_faults.py: a replica, a host, the DispatcherActor, the reconciler and the paging
scheduler killed; the store refusing writes for 10 s; the model answering 529 for 30 s) a phase
of `--seconds-per-fault` (at least the fault's window + 10 s). After the load it waits for the
abandoned-inbound sweep, then judges every message from what the store and the stand-ins hold
(bench/chaos_audit.py) and prints, per fault: accepted, answered, apologised, lost, answered
twice, 5xx to a provider (apart from the documented retryable 503s and the SMS primaries whose
fallback request was answered, counted as `fallback`), voice webhooks ok, and the
recovery time (from the fault, or the end of its window, to the end of the last request not
served normally: failed, apologised, refused, or slower than `--slow-s`), and the slowest
request of the phase. Goal: 0 lost, 0 twice, 0 5xx, every accepted message answered or apologised.

    .venv/bin/python bench/chaos.py [--seconds-per-fault 60] [--faults replica,host,...]
                                    [--store sqlite|dynamodb] [--sms 6] [--email 2] [--telegram 2] [--voice 2]
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

from bench.chaos_audit import Tally, provider_deliveries, recovery_s, tally_of  # noqa: E402
from bench.chaos_faults import FAULTS, Injected, inject, window_s  # noqa: E402
from bench.chaos_load import MixedLoad, add_load_arguments  # noqa: E402
from bench.chaos_rig import ABANDONED_AFTER_S, SWEEP_EVERY_S, Rig  # noqa: E402

COLUMNS = ("accepted", "answered", "apologised", "lost", "twice", "bad_5xx", "retry_503", "fallback")


async def run_phases(rig: Rig, load: MixedLoad, args) -> list[tuple[Injected, float, float]]:
    """(what was injected, phase start, phase end) for each fault, after the warm-up."""
    load.start()
    await asyncio.sleep(args.warmup_s)
    phases = []
    for fault in args.faults:
        started = time.monotonic()
        print(f"[{time.strftime('%H:%M:%S')}] fault: {fault}", flush=True)
        hold = max(args.seconds_per_fault, window_s(fault) + 10.0)
        injected = await inject(rig, fault)
        print(f"    {injected.note}", flush=True)
        if injected.note.startswith("SKIPPED"):
            continue
        await asyncio.sleep(max(0.0, started + hold - time.monotonic()))
        phases.append((injected, started, time.monotonic()))
    await load.stop()
    return phases


async def audit(rig: Rig, load: MixedLoad, phases, slow_s: float) -> list[tuple[str, Tally, float]]:
    spine = rig.spine()
    seen = provider_deliveries(rig.twilio, rig.mailgun, rig.telegram)
    rows = []
    try:
        # A request belongs to the phase it ended in: one in flight when a fault struck is that fault's.
        bounds = [("warm-up", 0.0, phases[0][1] if phases else float("inf"), None)]
        bounds += [(i.fault, start, end, i) for i, start, end in phases]
        last = len(bounds) - 1
        for n, (name, start, phase_end, injected) in enumerate(bounds):
            end = float("inf") if n == last else phase_end
            messages = [m for m in load.messages if start <= m.done_at < end]
            calls = [c for c in load.calls if start <= c.done_at < end]
            tally = await tally_of(spine, messages, calls, seen)
            took = recovery_s(messages, calls, injected.cleared, slow_s) if injected else 0.0
            rows.append((name, tally, took))
    finally:
        await spine.store.close()
    return rows


def report(rows, phases, rig: Rig, args) -> bool:
    notes = {i.fault: i.note for i, _, _ in phases}
    print(f"\nfaults under mixed load ({args.store}; {len(rig.sms_phones)} SMS, {args.email} email, {args.telegram} "
          f"Telegram senders, {len(rig.voice_phones)} callers; phases of >= {args.seconds_per_fault:.0f}s)")
    print(f"{'fault':12}{'sent':>6}" + "".join(f"{c.replace('bad_', ''):>11}" for c in COLUMNS)
          + f"{'voice ok':>11}{'slowest':>9}{'recovery':>10}")
    ok = True
    for name, t, took in rows:
        print(f"{name:12}{t.sent:>6}" + "".join(f"{getattr(t, c):>11}" for c in COLUMNS)
              + f"{f'{t.calls_ok}/{t.calls}':>11}{t.slowest_s:>8.1f}s{took:>9.1f}s")
        ok &= t.lost == 0 and t.twice == 0 and t.bad_5xx == 0 and t.accepted == t.answered + t.apologised
        for line in t.examples[:args.examples]:
            print(f"    {line}")
    for name, note in notes.items():
        print(f"  {name}: {note}")
    print(f"  model stand-in: {rig.policy.answered} answers, {rig.policy.overloaded} 529s")
    print(f"goal (0 lost, 0 twice, 0 5xx, every accepted message answered or apologised): {'met' if ok else 'NOT met'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds-per-fault", type=float, default=60.0)
    parser.add_argument("--warmup-s", type=float, default=15.0)
    parser.add_argument("--faults", type=lambda s: s.split(","), default=list(FAULTS))
    add_load_arguments(parser, sms=6, email=2, telegram=2, voice=2, think_s=0.5)
    parser.add_argument("--keep-logs", metavar="DIR", help="copy Ray's logs (replicas, actors) here at the end")
    parser.add_argument("--examples", type=int, default=3, help="lost/twice/failed requests shown per fault")
    parser.add_argument("--slow-s", type=float, default=5.0, help="a request slower than this is not served normally")
    args = parser.parse_args()
    os.environ.setdefault("RAY_SERVE_PROXY_READY_CHECK_TIMEOUT_S", "60")
    rig = Rig(args.store)
    try:
        secrets = rig.start(args.sms, args.voice)
        load = MixedLoad(secrets, rig.sms_phones, rig.voice_phones, args.email, args.telegram, args.think_s)
        phases = asyncio.run(run_phases(rig, load, args))
        wait = ABANDONED_AFTER_S + 3 * SWEEP_EVERY_S
        print(f"load stopped; waiting {wait:.0f}s for late replies and the abandoned-inbound sweep", flush=True)
        time.sleep(wait)
        rows = asyncio.run(audit(rig, load, phases, args.slow_s))
        # Printed before the rig stops: Ray's shutdown has been seen to end the process outright
        # ("the core worker has already been shutdown"), which lost a whole run's table.
        ok = report(rows, phases, rig, args)
    finally:
        rig.stop(args.keep_logs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
