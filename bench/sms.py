"""SMS gateway throughput and latency against a bare Ray Serve echo, side by side in one run,
and the store reads of each warm turn.

One private Ray, one Serve proxy on a free 127.0.0.1 port, two applications behind it:
  * echo: a bare deployment that returns the request body (the floor of a Serve round trip);
  * the gateway (`gateway.app:build_app`, 1 ingress replica, 2 PersonActor hosts, the
    DispatcherActor, the offline model, SQLite), answering signed Twilio-shaped webhooks.
S concurrent senders (default 16), each its own tenant, loop over bounded request counts: a
warm-up (PersonActors activated, connections open), then measured rounds alternating echo and
gateway. Each gateway request is a full warm SMS turn: signature, MessageSid dedupe record,
routing, the agent loop with one read-only tool through the DispatcherActor, trace, TwiML.
Prints requests/s and p50/p95 latency of both and the ratios, and the CPU each request costs in
each Ray process (on two cores throughput follows the total CPU per request), and the store reads
each measured turn's trace records (the Person and the roles at most once a turn). Criterion:
(issue 27), with Serve's default proxy: gateway throughput >= 0.65x echo's, p50 <= 1.6x echo's and
at most 26 ms of CPU per warm turn across the Ray processes; in HAProxy mode, throughput >= 0.50x
(CRITERIA). A third row redeploys the gateway with a
trivial turn function (RuntimeConfig.turn_function) to separate the gateway path (Serve ingress,
webhook checks, inbound log, actor hop) from the agent turn itself.

With `--proxy both` (default) it runs twice, in fresh processes: Serve's default proxy, then
RAY_SERVE_ENABLE_HA_PROXY=1 (HAProxy ingress) when this Ray version has it.

    .venv/bin/python bench/sms.py [--senders 16] [--requests 40] [--rounds 2] [--proxy default|haproxy|both]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.measure import pct, ray_cpu_ms  # noqa: E402

AUTH_TOKEN = "bench-twilio-token"
YALE = "+12065550100"
BODY = "what are the office hours?"


async def seed_store(path: Path, senders: int) -> list[str]:
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(path))
    try:
        return list(await seed_tenants(spine, senders))
    finally:
        await spine.store.close()


async def seed_tenants(spine, senders: int) -> dict[str, str]:
    """The demo data plus `senders` tenants of JP Yale Station: their phone -> Person id."""
    from desk.portfolio.demo import seed
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

    await seed(spine)
    phones = {}
    for i in range(senders):
        pid, phone = f"p_bench_{i:02d}", f"+1206555{7000 + i:04d}"
        await spine.put_person(Person(id=pid, display_name=f"Bench {i}", claims=[Claim(kind=ClaimKind.PHONE, value=phone)]))
        await spine.put_role(PersonRole(id=f"r_{pid}", person_id=pid, role_type=PersonRoleType.TENANT,
                                        source=PersonRoleSource.PMS_SYNC,
                                        scope=RoleScope(org_id="org_propflow", property_id="pf_yale",
                                                        unit_id="u_yale_110", occupancy=OccupancyKind.ROOMMATE)))
        phones[phone] = pid
    return phones


async def trivial_turn(deps, env, history, opening=None):
    """A turn that answers at once: what the gateway path costs without the agent."""
    from actors.protocol.turn import TurnResult
    from spine.records import AgentTrace

    trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=env.participant_id)
    return TurnResult(interaction_id=env.interaction_id, person_id=env.participant_id,
                      reply="Office: Mon-Fri 9am-6pm, Sat 10am-4pm", trace=trace)


def deploy_gateway(store: Path, port: int, turn_function: str | None = None) -> None:
    from ray import serve

    from gateway.app import build_app

    env = {"GATEWAY_STORE": f"sqlite:///{store}", "GATEWAY_MODEL": "offline", "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
           "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    runtime = {"namespace": "bench-sms" + ("-trivial" if turn_function else ""), "hosts": 2, "host_num_cpus": 0.25,
               "dispatcher_num_cpus": 0.25, "detached": False, "turn_function": turn_function}
    serve.run(build_app({"runtime": runtime, "env": env}), name="clara", route_prefix="/")


def deploy(store: Path, port: int) -> None:
    from ray import serve
    from starlette.requests import Request
    from starlette.responses import Response

    @serve.deployment(name="Echo", max_ongoing_requests=100, ray_actor_options={"num_cpus": 0.25})
    class Echo:
        async def __call__(self, request: Request) -> Response:
            return Response(await request.body(), media_type="application/xml")

    serve.run(Echo.bind(), name="echo", route_prefix="/echo")
    deploy_gateway(store, port)


class Load:
    """Closed-loop senders: each sends its next request when the previous one is answered."""

    def __init__(self, base_url: str, phones: list[str]) -> None:
        import httpx

        self.base_url, self.phones = base_url, phones
        self.interactions: list[str] = []  # the gateway turns measured (not the warm-up's)
        self.recording = False
        self.http = httpx.AsyncClient(base_url=base_url, timeout=30.0,
                                      limits=httpx.Limits(max_connections=len(phones) * 2))

    def _sms_request(self, phone: str) -> tuple[dict, dict]:
        from gateway.cli.sms import inbound_form
        from gateway.twilio.signature import sign

        sid = "SM" + uuid.uuid4().hex
        form = inbound_form(from_=phone, to=YALE, body=BODY, message_sid=sid, account_sid="AC" + "0" * 32)
        return form, {"X-Twilio-Signature": sign(AUTH_TOKEN, self.base_url + "/sms/twilio", form)}

    async def _one(self, target: str, phone: str) -> float:
        form, headers = self._sms_request(phone)  # built for both targets: equal client-side work
        path = "/sms/twilio" if target == "gateway" else "/echo"
        started = time.perf_counter()
        response = await self.http.post(path, data=form, headers=headers)
        elapsed = time.perf_counter() - started
        if response.status_code != 200 or (target == "gateway" and ("<Message>" not in response.text
                                                                      or "Sorry" in response.text)):
            raise RuntimeError(f"{target} answered {response.status_code}: {response.text[:200]}")
        if target == "gateway" and self.recording:
            self.interactions.append(response.headers.get("X-Clara-Interaction-Id", ""))
        return elapsed

    async def round(self, target: str, per_sender: int) -> dict:
        latencies: list[float] = []

        async def sender(phone: str) -> None:
            for _ in range(per_sender):
                latencies.append(await self._one(target, phone))

        cpu0 = ray_cpu_ms()
        started = time.perf_counter()
        await asyncio.gather(*(sender(p) for p in self.phones))
        wall = time.perf_counter() - started
        cpu = {k: (v - cpu0.get(k, 0.0)) / len(latencies) for k, v in ray_cpu_ms().items()}
        return {"rps": len(latencies) / wall, "p50_ms": pct(latencies, 50) * 1000,
                "p95_ms": pct(latencies, 95) * 1000, "n": len(latencies),
                "cpu_ms": {k: v for k, v in cpu.items() if v >= 0.005}}

    async def close(self) -> None:
        await self.http.aclose()


async def measure(base_url: str, phones: list[str], per_sender: int, rounds: int, warmup: int,
                  targets: tuple[str, ...] = ("echo", "gateway"), store: Path | None = None) -> dict:
    load = Load(base_url, phones)
    try:
        for target in targets:
            await load.round(target, warmup)
        load.recording = True
        results: dict[str, list[dict]] = {t: [] for t in targets}
        for _ in range(rounds):
            for target in targets:
                results[target].append(await load.round(target, per_sender))
        if store is not None:
            results["store_reads"] = await reads_per_turn(store, load.interactions)
        return results
    finally:
        await load.close()


async def reads_per_turn(store: Path, interactions: list[str]) -> dict:
    """What each measured (warm) turn's trace says it read from the store, by record kind:
    max and mean per turn, tool calls in the DispatcherActor included."""
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore

    spine = Spine(SqliteStore(store))
    try:
        traces = [await spine.get_trace(i) for i in interactions if i]
    finally:
        await spine.store.close()
    counted = [t.store_reads for t in traces if t is not None]
    kinds = sorted({k for c in counted for k in c})
    per_kind = {k: {"max": max(c.get(k, 0) for c in counted), "mean": statistics.mean(c.get(k, 0) for c in counted)}
                for k in kinds}
    tools = statistics.mean(len(t.tool_calls) for t in traces if t is not None)
    # Host -> DispatcherActor round trips beyond one per tool call (the target: at most 1).
    extra = [t.dispatcher_round_trips - len(t.tool_calls) for t in traces if t is not None]
    trips = statistics.mean(t.dispatcher_round_trips for t in traces if t is not None)
    return {"turns": len(counted), "tool_calls_mean": tools, "kinds": per_kind,
            "round_trips_mean": trips, "round_trips_extra_max": max(extra, default=0),
            "total_mean": statistics.mean(sum(c.values()) for c in counted)}


def run_variant(args: argparse.Namespace, proxy: str) -> dict:
    if proxy == "haproxy":
        os.environ["RAY_SERVE_ENABLE_HA_PROXY"] = "1"  # read when ray.serve is imported, also by the controller
    import ray
    from ray import serve

    from tests.support.ray_fixtures import free_port

    workdir = Path(tempfile.mkdtemp(prefix="clara-bench-sms-"))
    # Two sets of senders: the trivial-turn deployment gets people no earlier pool ever owned.
    phones = asyncio.run(seed_store(workdir / "clara.db", 2 * args.senders))
    agent_phones, trivial_phones = phones[:args.senders], phones[args.senders:]
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
             _temp_dir=str(workdir / "ray"), configure_logging=False)
    try:
        port = free_port()
        serve.start(http_options={"host": "127.0.0.1", "port": port})
        deploy(workdir / "clara.db", port)
        url = f"http://127.0.0.1:{port}"
        results = asyncio.run(measure(url, agent_phones, args.requests, args.rounds, args.warmup,
                                      store=workdir / "clara.db"))
        reads = results.pop("store_reads")
        deploy_gateway(workdir / "clara.db", port, turn_function="bench.sms:trivial_turn")
        trivial = asyncio.run(measure(url, trivial_phones, args.requests, 1, args.warmup, targets=("gateway",)))
        results["gateway_trivial_turn"] = trivial["gateway"]
    finally:
        serve.shutdown()
        ray.shutdown()
    return {"proxy": proxy, "store_reads": reads, **summarize(results)}


def summarize(results: dict[str, list[dict]]) -> dict:
    out = {}
    for target, runs in results.items():
        out[target] = {k: statistics.median(r[k] for r in runs) for k in ("rps", "p50_ms", "p95_ms")}
        roles = {role for r in runs for role in r["cpu_ms"]}
        out[target]["cpu_ms"] = {role: statistics.median(r["cpu_ms"].get(role, 0.0) for r in runs) for role in roles}
        out[target]["rounds"] = runs
    out["throughput_ratio"] = out["gateway"]["rps"] / out["echo"]["rps"]
    out["p50_ratio"] = out["gateway"]["p50_ms"] / out["echo"]["p50_ms"]
    return out


# proxy -> (throughput ratio at least, p50 ratio at most or None, CPU ms per turn at most or None)
CRITERIA = {"default": (0.65, 1.6, 26.0), "haproxy": (0.50, None, None)}


def report(result: dict, senders: int) -> None:
    e, g = result["echo"], result["gateway"]
    print(f"\nproxy: {result['proxy']}   {senders} concurrent senders, median of {len(e['rounds'])} rounds")
    print(f"{'':22}{'req/s':>10}{'p50 ms':>10}{'p95 ms':>10}")
    print(f"{'Serve echo':22}{e['rps']:>10.1f}{e['p50_ms']:>10.2f}{e['p95_ms']:>10.2f}")
    print(f"{'gateway SMS turn':22}{g['rps']:>10.1f}{g['p50_ms']:>10.2f}{g['p95_ms']:>10.2f}")
    t = result.get("gateway_trivial_turn")
    if t:
        print(f"{'gateway, trivial turn':22}{t['rps']:>10.1f}{t['p50_ms']:>10.2f}{t['p95_ms']:>10.2f}"
              f"   (gateway path without the agent: {t['rps'] / e['rps']:.2f}x echo throughput)")
    report_cpu(result)
    report_reads(result["store_reads"])
    report_criteria(result)


def report_criteria(result: dict) -> None:
    throughput, p50, cpu = CRITERIA[result["proxy"]]
    met = result["throughput_ratio"] >= throughput
    print(f"throughput gateway/echo = {result['throughput_ratio']:.2f} (target >= {throughput:.2f}: "
          f"{'met' if met else 'NOT met'})")
    if p50 is not None:
        met = result["p50_ratio"] <= p50
        print(f"p50 gateway/echo        = {result['p50_ratio']:.2f} (target <= {p50:.2f}: {'met' if met else 'NOT met'})")
    if cpu is not None:
        spent = sum(result["gateway"]["cpu_ms"].values())
        print(f"CPU per warm turn       = {spent:.1f} ms (target <= {cpu:.0f} ms: {'met' if spent <= cpu else 'NOT met'})")


def report_reads(reads: dict) -> None:
    """Store reads per warm SMS turn, from each measured turn's trace (AgentTrace.store_reads)."""
    kinds = reads["kinds"]
    print(f"store reads per warm SMS turn ({reads['turns']} turns, {reads['tool_calls_mean']:.1f} tool calls each,"
          f" dispatcher included): total {reads['total_mean']:.1f} on average")
    print("  " + ", ".join(f"{k} max {v['max']} mean {v['mean']:.2f}" for k, v in kinds.items()))
    extra = reads.get("round_trips_extra_max", 0)
    print(f"host -> dispatcher round trips per warm SMS turn: {reads.get('round_trips_mean', 0.0):.2f} on average,"
          f" at most 1 + N for N tool calls: {'met' if extra <= 1 else 'NOT met'} (at most N + {extra})")
    person, roles = kinds.get("person", {"max": 0}), kinds.get("roles", {"max": 0})
    ok = person["max"] <= 1 and roles["max"] <= 1
    print(f"Person read at most once and roles at most once per turn: {'met' if ok else 'NOT met'}"
          f" (max {person['max']} and {roles['max']})")


def report_cpu(result: dict) -> None:
    """Where each request's CPU goes (Ray processes only; the load generator is not counted).
    On a 2-core machine throughput follows the total, so this explains the ratio above."""
    columns = [t for t in ("echo", "gateway", "gateway_trivial_turn") if t in result]
    roles = sorted({role for t in columns for role in result[t]["cpu_ms"]},
                   key=lambda role: -max(result[t]["cpu_ms"].get(role, 0.0) for t in columns))
    print(f"CPU ms per request{'':22}" + "".join(f"{t.replace('gateway_trivial_turn', 'trivial'):>10}" for t in columns))
    for role in roles:
        print(f"  {role[:38]:38}" + "".join(f"{result[t]['cpu_ms'].get(role, 0.0):>10.2f}" for t in columns))
    print(f"  {'total':38}" + "".join(f"{sum(result[t]['cpu_ms'].values()):>10.2f}" for t in columns))


def has_ha_proxy() -> bool:
    from ray.serve._private import constants

    return hasattr(constants, "RAY_SERVE_ENABLE_HA_PROXY")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--senders", type=int, default=16)
    parser.add_argument("--requests", type=int, default=40, help="per sender per measured round")
    parser.add_argument("--warmup", type=int, default=5, help="per sender, before measuring")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--proxy", choices=["default", "haproxy", "both"], default="both")
    parser.add_argument("--json", action="store_true", help="print one JSON line (used by --proxy both)")
    args = parser.parse_args()
    if args.proxy != "both":
        result = run_variant(args, args.proxy)
        print(json.dumps(result) if args.json else "", end="\n" if args.json else "")
        if not args.json:
            report(result, args.senders)
        return
    variants = ["default"] + (["haproxy"] if has_ha_proxy() else [])
    if len(variants) == 1:
        print("RAY_SERVE_ENABLE_HA_PROXY does not exist in this Ray version; default proxy only")
    for proxy in variants:
        cmd = [sys.executable, __file__, "--proxy", proxy, "--json", "--senders", str(args.senders),
               "--requests", str(args.requests), "--warmup", str(args.warmup), "--rounds", str(args.rounds)]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
        if done.returncode != 0 or not lines:
            print(f"\nproxy {proxy}: failed (exit {done.returncode})\n{done.stderr[-2000:]}")
            continue
        report(json.loads(lines[-1]), args.senders)


if __name__ == "__main__":
    main()
