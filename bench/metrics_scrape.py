"""Scrape the metrics export port after `make run`'s K-1..K-5 replay: the gateway's metrics, nonzero.

Runs `gateway demo` (what `make run` runs) on free ports with its own store, waits for the replay
to finish, then polls Prometheus text on GATEWAY_METRICS_PORT until the gateway's `ray_clara_*`
series appear (Ray's agents report every few seconds), prints each nonzero one, and stops the
demo. Criterion: every metric the K-1..K-5 replay exercises is there with a nonzero value.

    .venv/bin/python bench/metrics_scrape.py
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.ray_fixtures import free_port  # noqa: E402

# What five SMS turns on the offline model must move (the rest need failures, voice or a cache).
EXPECTED = ["ray_clara_inbound_messages_total", "ray_clara_turn_latency_ms_count", "ray_clara_tool_calls_total",
            "ray_clara_other_lane_total", "ray_clara_active_person_actors"]
SAMPLE = re.compile(r"^(ray_clara_[a-z0-9_]+)(\{.*\})? ([0-9.e+-]+|[+-]?Inf|NaN)$")
# Prometheus label names are [a-zA-Z_][a-zA-Z0-9_]* (Ray's own are capitalised: Component,
# SessionName); values are quoted with \" and \\ escaped.
LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')
# Ray's own labels on every series (process, node, session): summed over for the printout.
RAY_LABELS = {"Component", "NodeAddress", "SessionName", "Version", "WorkerId", "otel_scope_name",
              "otel_scope_schema_url", "otel_scope_version", "le"}


def start_demo(workdir: Path) -> tuple[subprocess.Popen, int]:
    port, metrics_port = free_port(), free_port()
    config = yaml.safe_load((ROOT / "ray_config.yaml").read_text())
    config["http_options"]["port"] = port
    (workdir / "ray_config.yaml").write_text(yaml.safe_dump(config))
    env = {**os.environ, "GATEWAY_STORE": f"sqlite:///{workdir / 'clara.db'}", "GATEWAY_METRICS_PORT": str(metrics_port),
           "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{port}", "PYTHONPATH": str(ROOT)}
    env.pop("RAY_ADDRESS", None)
    demo = subprocess.Popen([str(Path(sys.executable).parent / "gateway"), "demo", "--config", str(workdir / "ray_config.yaml")],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=workdir)
    for line in demo.stdout:
        print("  | " + line.rstrip())
        if line.startswith("Ctrl-C stops the gateway"):
            return demo, metrics_port
    raise SystemExit(f"gateway demo exited ({demo.wait()}) before serving")


def gateway_series(text: str) -> dict[str, float]:
    """The nonzero `ray_clara_*` series of a Prometheus text page, keyed by name and the
    gateway's own labels (Ray's process labels summed over; histogram buckets left out)."""
    found: dict[str, float] = {}
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if not match or match.group(1).endswith("_bucket") or float(match.group(3)) == 0:
            continue
        labels = [f"{k}={v}" for k, v in LABEL.findall(match.group(2) or "") if k not in RAY_LABELS]
        key = match.group(1) + (f"{{{','.join(sorted(labels))}}}" if labels else "")
        found[key] = found.get(key, 0.0) + float(match.group(3))
    return found


def scrape(metrics_port: int, timeout_s: float = 60.0) -> dict[str, float]:
    deadline, found = time.monotonic() + timeout_s, {}
    while time.monotonic() < deadline:
        found = gateway_series(httpx.get(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5.0).text)
        if all(any(k.startswith(name) for k in found) for name in EXPECTED):
            return found
        time.sleep(2.0)
    return found


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="clara-metrics-"))
    demo, metrics_port = start_demo(workdir)
    try:
        started = time.monotonic()
        found = scrape(metrics_port)
        print(f"\nscrape of http://127.0.0.1:{metrics_port}/metrics, {time.monotonic() - started:.0f}s after the replay:")
        for key in sorted(found):
            print(f"  {key} {found[key]:g}")
    finally:
        demo.send_signal(signal.SIGTERM)
        demo.wait(timeout=60)
    names = sorted({key.split("{")[0] for key in found})
    missing = [name for name in EXPECTED if name not in names]
    print(f"\n{len(names)} gateway metric names with nonzero series ({len(found)} series); "
          + (f"MISSING: {missing}" if missing else "every expected one present"))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
