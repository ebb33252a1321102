"""The two host designs of issue 11, side by side in one run on a private Ray:

  (a) hosts as a Serve deployment reached through Serve's consistent-hash router on the
      person's key (`ConsistentHashRouter`, `handle.options(session_id=key)`), beside the same
      deployment behind Serve's default router;
  (b) named host actors called directly (what actors.client.pool.HostPool does).

For each: calls per second and p50 latency, 16 concurrent callers in one process, 2 KB payload.
For (a) also what a resize does to ownership: the share of 200 keys whose replica changes when
the deployment goes from 2 to 3 replicas. Under (a) a moved key lands on a replica that cannot
hand the call to the lease owner (a Serve handle cannot address one replica), so it waits for
that owner to let go; under (b) the pool forwards it to the owner named in the lease.

    .venv/bin/python bench/hosts_design.py [--calls 1500]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ray
from ray import serve
from ray.serve.config import RequestRouterConfig

from tests.support.ray_fixtures import private_ray_init

PAYLOAD = b"x" * 2048
CONCURRENCY = 16
CONSISTENT_HASH = "ray.serve.experimental.consistent_hash_router:ConsistentHashRouter"


class Echo:
    async def handle(self, data: bytes) -> bytes:
        return data[:16] + str(os.getpid()).encode()


EchoActor = ray.remote(Echo)


def deployment(name: str, replicas: int, router: str | None):
    options = dict(name=name, num_replicas=replicas, ray_actor_options={"num_cpus": 0.1}, max_ongoing_requests=1000)
    if router:
        options["request_router_config"] = RequestRouterConfig(request_router_class=router,
                                                               request_router_kwargs={"num_fallback_replicas": 0})
    return serve.deployment(**options)(Echo)


async def measure(call, calls: int) -> tuple[float, float]:
    latencies: list[float] = []

    async def caller(index: int) -> None:
        for n in range(calls // CONCURRENCY):
            started = time.perf_counter()
            await call(f"person:p_{index}_{n % 50}")
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(caller(i) for i in range(CONCURRENCY)))
    return len(latencies) / (time.perf_counter() - started), statistics.median(latencies) * 1000


async def owners(handle, keys: list[str]) -> dict[str, bytes]:
    replies = await asyncio.gather(*(handle.options(session_id=k).handle.remote(PAYLOAD) for k in keys))
    return {k: r[16:] for k, r in zip(keys, replies, strict=True)}


async def run(calls: int) -> int:
    actors = [EchoActor.options(num_cpus=0.1).remote() for _ in range(2)]
    await asyncio.gather(*(a.handle.remote(b"") for a in actors))
    hash_hosts = deployment("HashHosts", 2, CONSISTENT_HASH)
    serve.run(hash_hosts.bind(), name="hash", route_prefix=None)
    serve.run(deployment("DefaultHosts", 2, None).bind(), name="default", route_prefix=None)
    hashed, default = serve.get_app_handle("hash"), serve.get_app_handle("default")
    for handle in (hashed, default):  # warm the routers
        await asyncio.gather(*(handle.options(session_id=str(i)).handle.remote(PAYLOAD) for i in range(50)))

    def raw(key: str):
        return actors[hash(key) % 2].handle.remote(PAYLOAD)

    results = {
        "(b) named host actors, raw calls": await measure(raw, calls),
        "(a) Serve handle, consistent hash": await measure(lambda k: hashed.options(session_id=k).handle.remote(PAYLOAD), calls),
        "    Serve handle, default router": await measure(lambda k: default.handle.remote(PAYLOAD), calls),
    }
    base = results["(b) named host actors, raw calls"][0]
    print(f"{CONCURRENCY} concurrent callers, 2 KB payload, {calls} calls each design")
    for name, (rate, p50) in results.items():
        print(f"  {name:36s} {rate:7.0f} calls/s ({rate / base:.2f}x raw)  p50 {p50:.2f} ms")

    keys = [f"person:p_{i}" for i in range(200)]
    before = await owners(hashed, keys)
    stable = await owners(hashed, keys)
    serve.run(hash_hosts.options(num_replicas=3).bind(), name="hash", route_prefix=None)  # same version: 2 kept
    await asyncio.sleep(2.0)  # the routers learn the third replica from the controller
    after = await owners(hashed, keys)
    moved = sum(before[k] != after[k] for k in keys)
    print(f"(a) affinity: {sum(before[k] == stable[k] for k in keys)}/200 keys on the same replica twice; "
          f"after 2 -> 3 replicas {moved}/200 keys ({moved / 2:.0f}%) reach another replica than before")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1500)
    args = parser.parse_args()
    temp_dir = private_ray_init(num_cpus=4, tag="clara-hosts-design")
    try:
        serve.start(http_options={"host": "127.0.0.1", "port": 0})
        return asyncio.run(run(args.calls))
    finally:
        serve.shutdown()
        ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
