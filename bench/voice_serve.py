"""Voice personalization through Ray Serve, as deployed: the proxy, then GatewayIngress replicas.

bench/voice.py serves the gateway's app on uvicorn in its own processes, which measures the
gateway's own work. Here the same bursts of 50 simultaneous `POST /voice/personalization` calls
go through Serve's HTTP proxy to GatewayIngress replicas (as many as ray_config.yaml starts, or
--replicas) on one private Ray, side by side in one run with the same burst answered 401 by the
same replicas (the floor: what Serve's proxy and replica hop cost on this machine, no gateway
work). Same store and callers as bench/voice.py. Criterion (issue 27): personalization p99 at
most P99_OVER_FLOOR_AT_MOST (1.5x) the floor's p99 measured in the same run.

    .venv/bin/python bench/voice_serve.py [--bursts 20] [--replicas N]
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.measure import configured_replicas, configured_runtime, pct, ray_cpu_ms, summary  # noqa: E402
from bench.voice import SECRET, TOKEN, personalization, seed_bench_tenants  # noqa: E402

P99_OVER_FLOOR_AT_MOST = 1.5


async def seed_store(path: Path) -> None:
    from desk.portfolio.demo import seed
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(path))
    await seed(spine)
    await seed_bench_tenants(spine)
    await spine.store.close()


def deploy(store: Path, port: int, replicas: int) -> None:
    from ray import serve

    from gateway.app import GatewayIngress
    from gateway.settings import GatewayArgs

    env = {"GATEWAY_STORE": f"sqlite:///{store}", "GATEWAY_MODEL": "offline", "TWILIO_AUTH_TOKEN": SECRET,
           "GATEWAY_VOICE_TOKEN": TOKEN, "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    # The hosts as ray_config.yaml sizes them: a call opens a session on the caller's PersonActor,
    # so a burst of rings is spread over them.
    sizing = {k: v for k, v in configured_runtime().items() if k in ("hosts", "host_num_cpus", "dispatcher_num_cpus")}
    runtime = {**sizing, "namespace": "bench-voice", "detached": False}
    fixed = {"min_replicas": replicas, "initial_replicas": replicas, "max_replicas": replicas}
    args = GatewayArgs.model_validate({"runtime": runtime, "env": env}).to_args()
    serve.run(GatewayIngress.options(autoscaling_config=fixed, user_config={"runtime": runtime}).bind(args),
              name="clara", route_prefix="/")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--replicas", type=int, default=configured_replicas())
    args = parser.parse_args()

    import ray
    from ray import serve

    from tests.support.ray_fixtures import free_port

    workdir = Path(tempfile.mkdtemp(prefix="clara-bench-voice-serve-"))
    asyncio.run(seed_store(workdir / "clara.db"))
    ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(workdir / "ray"), configure_logging=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
    try:
        port = free_port()
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        deploy(workdir / "clara.db", port, args.replicas)
        calls = (args.bursts + 1) * args.concurrency
        cpu0 = ray_cpu_ms()
        floor = asyncio.run(personalization(port, args.bursts, args.concurrency, floor=True))
        cpu1 = ray_cpu_ms()
        person = asyncio.run(personalization(port, args.bursts, args.concurrency))
        cpu2 = ray_cpu_ms()
    finally:
        serve.shutdown()
        ray.shutdown()
    print(f"\npersonalization through Ray Serve, {args.concurrency} concurrent calls x {args.bursts} bursts "
          f"({args.replicas} GatewayIngress replica(s), SQLite):")
    ratio = pct(person, 99) / pct(floor, 99)
    print(f"  {summary(person)}")
    print(f"  Serve floor (same burst, answered 401 by the same replicas): {summary(floor)}")
    print(f"  p99 / floor p99 = {ratio:.2f} (target <= {P99_OVER_FLOOR_AT_MOST}: "
          f"{'met' if ratio <= P99_OVER_FLOOR_AT_MOST else 'NOT met'})")
    print(f"  CPU ms per call{'':25}{'floor':>10}{'answered':>10}")
    for role in sorted(cpu2, key=lambda r: cpu1.get(r, 0.0) - cpu2[r]):
        spent = ((cpu1.get(role, 0.0) - cpu0.get(role, 0.0)) / calls, (cpu2[role] - cpu1.get(role, 0.0)) / calls)
        if max(spent) >= 0.01:
            print(f"    {role[:36]:36}{spent[0]:>10.2f}{spent[1]:>10.2f}")
    return 0 if ratio <= P99_OVER_FLOOR_AT_MOST else 1


if __name__ == "__main__":
    sys.exit(main())
