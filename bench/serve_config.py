"""The production path under each Serve configuration Ray 2.60 offers, side by side in one run.

Modes: Serve's default proxy; RAY_SERVE_THROUGHPUT_OPTIMIZED=1; RAY_SERVE_ENABLE_HA_PROXY=1
(HAProxy in front of the replicas, which then take HTTP on their own ports); both. Each mode runs
in a fresh process with its own private Ray (the variables are read when Ray and Serve start),
and measures, in that one Ray:
  * personalization: bursts of 50 simultaneous `POST /voice/personalization` through Serve to
    the GatewayIngress replicas (bench/voice_serve.py), beside the same bursts answered 401 by
    the same replicas (Serve's floor);
  * SMS: warm SMS turns from concurrent senders against a bare Serve echo (bench/sms.py).
Criteria for the mode `gateway serve` uses: personalization p99 <= 100 ms; SMS throughput
>= 0.60x the echo's.

    .venv/bin/python bench/serve_config.py [--bursts 20] [--modes default,throughput,haproxy,both]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MODES: dict[str, dict[str, str]] = {
    "default": {},
    "throughput": {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1"},
    "haproxy": {"RAY_SERVE_ENABLE_HA_PROXY": "1"},
    "both": {"RAY_SERVE_THROUGHPUT_OPTIMIZED": "1", "RAY_SERVE_ENABLE_HA_PROXY": "1"},
}
P99_MAX_MS, SMS_RATIO_MIN = 100.0, 0.60


def measure_mode(args: argparse.Namespace) -> dict:
    """In this (fresh) process: one private Ray in the mode's environment, both workloads."""
    os.environ.update(MODES[args.mode])  # before Ray or Serve is imported
    os.environ.setdefault("RAY_SERVE_PROXY_READY_CHECK_TIMEOUT_S", "60")  # a proxy starts slowly on a busy machine
    import ray
    from ray import serve

    from bench import sms, voice_serve
    from bench.measure import configured_replicas, pct
    from bench.voice import personalization
    from tests.support.ray_fixtures import free_port

    workdir = Path(tempfile.mkdtemp(prefix=f"cbs-{args.mode[:2]}-"))
    asyncio.run(voice_serve.seed_store(workdir / "voice.db"))
    phones = asyncio.run(sms.seed_store(workdir / "sms.db", args.senders))
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(workdir / "ray"), configure_logging=False)
    try:
        port = free_port()
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        voice_serve.deploy(workdir / "voice.db", port, configured_replicas())
        floor = asyncio.run(personalization(port, args.bursts, 50, floor=True))
        answered = asyncio.run(personalization(port, args.bursts, 50))
        serve.delete("clara")
        sms.deploy(workdir / "sms.db", port)
        sms_result = sms.summarize(asyncio.run(sms.measure(f"http://127.0.0.1:{port}", phones, args.requests,
                                                           args.rounds, args.warmup)))
    finally:
        serve.shutdown()
        ray.shutdown()
    return {"mode": args.mode, "floor_p50": pct(floor, 50), "floor_p99": pct(floor, 99),
            "p50": pct(answered, 50), "p99": pct(answered, 99), "max": max(answered),
            "echo_rps": sms_result["echo"]["rps"], "sms_rps": sms_result["gateway"]["rps"],
            "sms_p50": sms_result["gateway"]["p50_ms"], "ratio": sms_result["throughput_ratio"]}


def report(results: list[dict]) -> None:
    print(f"\n{'mode':12}{'floor p50':>10}{'floor p99':>10}{'pers p50':>10}{'pers p99':>10}{'pers max':>10}"
          f"{'echo/s':>9}{'sms/s':>8}{'sms/echo':>9}  criteria")
    for r in results:
        met = r["p99"] <= P99_MAX_MS and r["ratio"] >= SMS_RATIO_MIN
        print(f"{r['mode']:12}{r['floor_p50']:>10.1f}{r['floor_p99']:>10.1f}{r['p50']:>10.1f}{r['p99']:>10.1f}"
              f"{r['max']:>10.1f}{r['echo_rps']:>9.1f}{r['sms_rps']:>8.1f}{r['ratio']:>9.2f}  {'met' if met else 'not met'}")
    print(f"(ms; personalization = 50 simultaneous calls per burst; criteria: p99 <= {P99_MAX_MS:.0f} ms and "
          f"SMS >= {SMS_RATIO_MIN:.2f}x echo)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--senders", type=int, default=16)
    parser.add_argument("--requests", type=int, default=30, help="SMS per sender per measured round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--mode", choices=list(MODES), help=argparse.SUPPRESS)  # one mode, in this process
    args = parser.parse_args()
    if args.mode:
        print(json.dumps(measure_mode(args)))
        return 0
    results = []
    for mode in args.modes.split(","):
        cmd = [sys.executable, __file__, "--mode", mode, "--bursts", str(args.bursts), "--senders", str(args.senders),
               "--requests", str(args.requests), "--rounds", str(args.rounds), "--warmup", str(args.warmup)]
        env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_SERVE_")}
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=1200, env=env)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode != 0 or not lines:
            print(f"mode {mode}: failed (exit {done.returncode})\n{done.stderr[-1500:]}")
            continue
        results.append(json.loads(lines[-1]))
        print(f"{mode}: {lines[-1]}", flush=True)
    report(results)
    from gateway.cli.serve import SERVE_MODE

    chosen = next((name for name, env in MODES.items() if env == SERVE_MODE), "custom")
    print(f"gateway serve uses: {chosen} {SERVE_MODE or ''}")
    mine = next((r for r in results if r["mode"] == chosen), None)
    return 0 if mine and mine["p99"] <= P99_MAX_MS and mine["ratio"] >= SMS_RATIO_MIN else 1


if __name__ == "__main__":
    sys.exit(main())
