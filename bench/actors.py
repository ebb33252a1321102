"""PersonActor (virtual, many per host process) vs one Ray actor per participant, side by side.

Measures, in one run on this machine:
  * PersonActors: activate N (default 10,000) warm participants in one host process, each on its
    first message (owner lease + roles + personContext from a seeded SQLite store + one trivial
    turn so the transcript holds a real exchange); RSS delta / N and p50/p95 activation time.
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
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from actors.host import PersonHost  # noqa: E402
from actors.lease import Leases  # noqa: E402
from actors.person_actor import PersonRuntime  # noqa: E402
from actors.turn_types import TurnDeps, TurnResult  # noqa: E402
from spine.context import ActivePointers, ActiveWorkOrder, PersonContext  # noqa: E402
from spine.demo import seed  # noqa: E402
from spine.envelope import MessageEnvelope  # noqa: E402
from spine.identity import Claim, ClaimKind, OccupancyKind, Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope  # noqa: E402,E501
from spine.records import AgentTrace  # noqa: E402
from spine.repo import Spine  # noqa: E402
from spine.store.sqlite import SqliteStore  # noqa: E402

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


async def trivial_turn(deps: TurnDeps, env: MessageEnvelope, history: list[dict]) -> TurnResult:
    trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=env.participant_id)
    return TurnResult(interaction_id=env.interaction_id, person_id=env.participant_id, reply=REPLY, trace=trace)


async def bench_person_actors(n: int, workdir: Path) -> dict:
    spine = Spine(SqliteStore(workdir / "bench.db"))
    await seed(spine)
    t = time.perf_counter()
    await seed_people(spine, n)
    print(f"  seeded {n} people in {time.perf_counter() - t:.1f}s")
    runtime = PersonRuntime(deps=TurnDeps(spine=spine, model=None, tools=None),  # type: ignore[arg-type]
                            leases=Leases(spine.store, "bench/clara-host-0", 30.0), host_id="bench/clara-host-0",
                            turn=trivial_turn)
    host = PersonHost(runtime, sweep_interval_s=3600)
    envs = [MessageEnvelope(message_id=f"SMb{i}", interaction_id=f"ix_b{i}", channel="sms",
                            from_address=f"+1206{i:07d}", to_address="+12065550100", body=BODY,
                            property_id="pf_yale", participant_id=f"p_bench_{i:05d}") for i in range(n)]
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
    warm = sum(1 for a in host.persons.values() if a.active and a.context and a.roles and a.transcript)
    host.close()
    await spine.store.close()
    return {"n": n, "warm": warm, "per_actor_bytes": (after - before) / n, "rss_delta": after - before,
            "p50_s": statistics.median(times), "p95_s": pct(times, 0.95)}


def bench_ray_actors(m: int, workdir: Path) -> dict:
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
    return {"m": m, "p50_s": statistics.median(times), "p95_s": pct(times, 0.95),
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
        print(f"Ray actors: creating {args.ray_actors}, one per participant (private Ray)")
        ra = bench_ray_actors(args.ray_actors, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    mem = pa["per_actor_bytes"]
    print()
    print(f"{'':34}{'PersonActor':>16}{'Ray actor each':>18}{'ratio':>10}")
    print(f"{'memory per participant':34}{mem / KB:>13.1f} KB{ra['uss_per_actor'] / MB:>12.1f} MiB USS"
          f"{ra['uss_per_actor'] / max(mem, 1):>9.0f}x")
    print(f"{'  (Ray worker RSS)':34}{'':>16}{ra['rss_per_actor'] / MB:>12.1f} MiB RSS")
    print(f"{'activation / creation p50':34}{pa['p50_s'] * 1000:>13.2f} ms{ra['p50_s'] * 1000:>15.1f} ms"
          f"{ra['p50_s'] / pa['p50_s']:>9.0f}x")
    print(f"{'activation / creation p95':34}{pa['p95_s'] * 1000:>13.2f} ms{ra['p95_s'] * 1000:>15.1f} ms")
    print(f"{'warm participants held':34}{pa['warm']:>16}{ra['m']:>18}")
    print(f"{'RSS for them':34}{pa['rss_delta'] / MB:>12.1f} MiB{ra['rss_sum'] / MB:>14.1f} MiB")
    ok = mem <= 100 * KB and pa["p50_s"] <= 0.010 and pa["warm"] == pa["n"]
    print(f"\ntargets (<= 100 KB, <= 10 ms p50, all {pa['n']} warm): {'met' if ok else 'NOT met'}")


if __name__ == "__main__":
    main()
