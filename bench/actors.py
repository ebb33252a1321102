"""PersonActor (virtual, many per host process) vs one Ray actor per participant, side by side.

Measures, in one run on this machine:
  * PersonActors: activate N (default 10,000) warm participants in one host process, each on its
    first message (owner lease + roles + personContext from a seeded SQLite store + one trivial
    turn so the transcript holds a real exchange); RSS delta / N and p50/p95 activation time.
  * The same through Ray: one PersonActorHost (a Ray actor) holding the N participants, each
    activated by its first message sent through HostPool.submit; RSS delta of the host process / N
    and p50 first-message time including the Ray call.
  * Ray actors: create M (default 20) trivial actors, one per participant, in a private Ray;
    p50 creation time (until the actor answers) and memory per actor (RSS and private USS of each
    worker process).
Prints both and their ratios. Targets: <= 100 KB and <= 10 ms p50 per PersonActor; N held warm.

    .venv/bin/python bench/actors.py [--persons 10000] [--ray-actors 20]
"""
from __future__ import annotations

import argparse
import asyncio
import gc
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from actors.dispatcher.dispatcher import Dispatcher
from actors.host.host import PersonHost
from actors.host.ownership import Ownerships
from actors.host.person_actor import PersonRuntime
from actors.protocol.turn import TurnDeps, TurnResult
from desk.portfolio.demo import seed
from spine.context import ActivePointers, ActiveWorkOrder, PersonContext
from spine.envelope import MessageEnvelope
from spine.identity import (
    Claim,
    ClaimKind,
    OccupancyKind,
    Person,
    PersonRole,
    PersonRoleSource,
    PersonRoleType,
    RoleScope,
)
from spine.records import AgentTrace
from spine.repo import Spine
from spine.store.sqlite import SqliteStore

KB, MB = 1024, 1024 * 1024
SUMMARY = ("Tenant of unit 204 at JP Yale Station since 2023. Reported a running toilet (WO-7), in progress "
           "with the in-house team; asked twice for an ETA. Prefers texts after 5pm. Renewal offer for a 12-month "
           "term is pending; said they are likely to accept but want to confirm parking first. ") * 2
BODY = "Hi, the toilet in 204 is running again since this morning, can someone come by today after 5pm?"
REPLY = ("Thanks for letting us know. I've added a note to WO-7 and asked the in-house team to stop by after "
         "5pm today. I'll text you when they're on the way.")


def rss_bytes(pid: int | str = "self") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * KB
    raise RuntimeError("no VmRSS")


def uss_bytes(pid: int) -> int:
    """Private (unshared) memory of a process: what one more such process really costs."""
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith(("Private_Clean:", "Private_Dirty:")):
            total += int(line.split()[1]) * KB
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def seed_people(spine: Spine, n: int) -> None:
    async def one(i: int) -> None:
        pid = f"p_bench_{i:05d}"
        person = Person(id=pid, display_name=f"Bench {i}", claims=[Claim(kind=ClaimKind.PHONE, value=f"+1206{i:07d}")])
        role = PersonRole(id=f"r_{pid}", person_id=pid, role_type=PersonRoleType.TENANT, source=PersonRoleSource.PMS_SYNC,
                          scope=RoleScope(org_id="org_propflow", unit_id="u_yale_204", occupancy=OccupancyKind.PRIMARY))
        ctx = PersonContext(person_id=pid, summary=SUMMARY, active=ActivePointers(active_work_orders=[
            ActiveWorkOrder(id="wo_7", display_id="WO-7", status="in_progress", brief="running toilet")]))
        await spine.put_person(person)
        await spine.put_role(role)
        await spine.put_context(ctx)

    for start in range(0, n, 250):
        await asyncio.gather(*(one(i) for i in range(start, min(n, start + 250))))


async def trivial_turn(deps: TurnDeps, env: MessageEnvelope, history: list[dict], opening=None) -> TurnResult:
    trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=env.participant_id)
    return TurnResult(interaction_id=env.interaction_id, person_id=env.participant_id, reply=REPLY, trace=trace)


async def bench_person_actors(n: int, workdir: Path) -> dict:
    spine = Spine(SqliteStore(workdir / "bench.db"))
    await seed(spine)
    t = time.perf_counter()
    await seed_people(spine, n)
    print(f"  seeded {n} people in {time.perf_counter() - t:.1f}s")
    with sqlite3.connect(workdir / "bench.db") as src, sqlite3.connect(workdir / "bench-ray.db") as dst:
        src.backup(dst)  # the same people, unowned, for the Ray-hosted run
    runtime = PersonRuntime(deps=TurnDeps(spine=spine, model=None, tools=Dispatcher(spine)),  # type: ignore[arg-type]
                            ownerships=Ownerships(spine.store, "bench/clara-host-0", 30.0), host_id="bench/clara-host-0",
                            turn=trivial_turn)
    host = PersonHost(runtime, sweep_interval_s=3600)
    envs = first_messages(n)
    gc.collect()
    before = rss_bytes()
    times = []
    for env in envs:
        t = time.perf_counter()
        await host.submit(env)
        times.append(time.perf_counter() - t)
    envs.clear()
    gc.collect()
    after = rss_bytes()
    warm = sum(1 for a in host.persons.values() if a.active and a.opening and a.opening.roles and a.transcript)
    host.close()
    await spine.store.close()
    return {"n": n, "warm": warm, "per_actor_bytes": (after - before) / n, "rss_delta": after - before,
            "p50_s": statistics.median(times), "p95_s": pct(times, 0.95)}


def first_messages(n: int) -> list[MessageEnvelope]:
    return [MessageEnvelope(message_id=f"SMb{i}", interaction_id=f"ix_b{i}", channel="sms",
                            from_address=f"+1206{i:07d}", to_address="+12065550100", body=BODY,
                            property_id="pf_yale", participant_id=f"p_bench_{i:05d}") for i in range(n)]


async def bench_ray_host(n: int, workdir: Path) -> dict:
    from actors.client.pool import HostPool
    from actors.config import RuntimeConfig

    # Prefetch off: the trivial turn never reads the lookups a real turn would start beside its first
    # model call (since begin_turn they start with the Opening's authority), and this measures what
    # a PersonActor costs, not the dispatcher's speculative reads.
    config = RuntimeConfig(store_url=f"sqlite:///{workdir / 'bench-ray.db'}", namespace="clara-bench", hosts=1,
                           detached=False, idle_deactivate_s=3600, turn_function="bench.actors:trivial_turn",
                           prefetch=False)
    pool = await HostPool.start(config)
    host_pid = await pool.hosts[0].pid.remote()
    await pool.submit(first_messages(1)[0])  # warm the host's imports and store connection
    before = rss_bytes(host_pid)
    times = []
    for env in first_messages(n)[1:]:
        t = time.perf_counter()
        await pool.submit(env)
        times.append(time.perf_counter() - t)
    after = rss_bytes(host_pid)
    held = len(await pool.actors())
    await pool.shutdown(kill=True)
    return {"n": n - 1, "warm": held, "per_actor_bytes": (after - before) / (n - 1), "rss_delta": after - before,
            "p50_s": statistics.median(times), "p95_s": pct(times, 0.95)}


def bench_ray(m: int, n: int, workdir: Path) -> tuple[dict, dict]:
    import ray

    os.environ["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).resolve().parents[1]),
                                                os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(workdir / "ray"), configure_logging=False)

    @ray.remote(num_cpus=0.01)
    class OneParticipant:
        """What one Ray actor per participant would hold: the same warm fields, nothing more."""

        def __init__(self, person_id: str) -> None:
            self.person_id, self.summary, self.transcript = person_id, SUMMARY, []

        def pid(self) -> int:
            return os.getpid()

    try:
        print(f"PersonActors in a Ray host: {n} first messages through HostPool.submit")
        hosted = asyncio.run(bench_ray_host(n, workdir))
        print(f"Ray actors: creating {m}, one per participant")
        ray.get(OneParticipant.remote("warmup").pid.remote())  # the worker pool is up
        times, handles = [], []
        for i in range(m):
            t = time.perf_counter()
            handle = OneParticipant.remote(f"p_{i}")
            ray.get(handle.pid.remote())
            times.append(time.perf_counter() - t)
            handles.append(handle)
        pids = ray.get([h.pid.remote() for h in handles])
        rss = [rss_bytes(p) for p in pids]
        uss = [uss_bytes(p) for p in pids]
    finally:
        ray.shutdown()
    return hosted, {"m": m, "p50_s": statistics.median(times), "p95_s": pct(times, 0.95),
                    "rss_per_actor": statistics.mean(rss), "uss_per_actor": statistics.mean(uss), "rss_sum": sum(rss)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--persons", type=int, default=10_000)
    parser.add_argument("--ray-actors", type=int, default=20)
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix=f"clara-bench-{os.getpid()}-", dir="/tmp"))
    try:
        print(f"PersonActors: activating {args.persons} warm participants in one host process")
        pa = asyncio.run(bench_person_actors(args.persons, workdir))
        print("private Ray:")
        rh, ra = bench_ray(args.ray_actors, args.persons, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    print()
    print(f"{'':28}{'PersonActor':>14}{'PersonActor':>14}{'Ray actor':>14}{'ratio':>8}")
    print(f"{'':28}{'in-process':>14}{'in Ray host':>14}{'each':>14}{'':>8}")
    mem, hmem = pa["per_actor_bytes"], rh["per_actor_bytes"]
    print(f"{'memory per participant':28}{mem / KB:>11.1f} KB{hmem / KB:>11.1f} KB{ra['uss_per_actor'] / MB:>10.1f} MiB"
          f"{ra['uss_per_actor'] / max(hmem, mem, 1):>7.0f}x   (Ray actor: private USS)")
    print(f"{'  Ray worker RSS':28}{'':>28}{ra['rss_per_actor'] / MB:>10.1f} MiB")
    print(f"{'first message p50':28}{pa['p50_s'] * 1000:>11.2f} ms{rh['p50_s'] * 1000:>11.2f} ms"
          f"{ra['p50_s'] * 1000:>11.0f} ms{ra['p50_s'] / rh['p50_s']:>7.0f}x   (Ray actor: creation)")
    print(f"{'first message p95':28}{pa['p95_s'] * 1000:>11.2f} ms{rh['p95_s'] * 1000:>11.2f} ms"
          f"{ra['p95_s'] * 1000:>11.0f} ms")
    print(f"{'warm participants held':28}{pa['warm']:>14}{rh['warm']:>14}{ra['m']:>14}")
    print(f"{'RSS for them':28}{pa['rss_delta'] / MB:>10.1f} MiB{rh['rss_delta'] / MB:>10.1f} MiB"
          f"{ra['rss_sum'] / MB:>10.0f} MiB")
    ok = (max(mem, hmem) <= 100 * KB and max(pa["p50_s"], rh["p50_s"]) <= 0.010
          and pa["warm"] == pa["n"] and rh["warm"] >= rh["n"])
    print(f"\ntargets (<= 100 KB, <= 10 ms p50, all {pa['n']} warm): {'met' if ok else 'NOT met'}")

if __name__ == "__main__":
    main()
