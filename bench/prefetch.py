"""Speculative prefetch measured where it matters: a slow model and a store across a network.

One private Ray and Serve proxy, two gateway applications side by side (`/on` and `/off`), the
same in all but RuntimeConfig.prefetch (`runtime: {prefetch: false}` in ray_config.yaml):
  * the model: the Anthropic stand-in (tests/support/anthropic_server.py) through the product's
    ANTHROPIC_BASE_URL, answering after a time to first token (default 400 ms) plus generation
    per output token; its first answer to a first message is the lazy tool call the message asks
    for, its answer to the tool result is text;
  * the store: DynamoDB on moto, one table per application seeded alike, behind
    bench/delay_proxy.py (every request held 10-30 ms, uniform, seeded), reached through the
    ordinary GATEWAY_STORE URL.
Each turn is a signed SMS, the first message of its own tenant or vendor, whose tool call is one
of the lookups tools.prefetch guesses: a tenant asking about their work order
(get_work_order_detail) or an appliance (get_unit_appliances), a vendor asking for a dispatch
(get_dispatch_details). The two modes' turns are interleaved, a few at a time, so both meet the
same machine. Afterwards every turn's trace is read from the store: its tool calls (`prefetched`,
`latency_ms`: what the call waited) and its prefetch report.

Prints, per mode, the turn latency p50/p95 (the webhook round trip the sender waits), the lazy
tools' latency total, the share of it prefetch hides (1 - on/off) and the hit calls' wait
against a lookup's, and the waste: lookups fetched that no tool call used. Criterion: prefetch
hides at least 50% of the lazy tools' latency (exit 1 when not met).

    .venv/bin/python bench/prefetch.py [--turns 40] [--concurrency 4] [--ttft-ms 400]
"""
from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.measure import pct  # noqa: E402
from bench.sms import AUTH_TOKEN, YALE  # noqa: E402

MODES = ("on", "off")
API_KEY = "bench-anthropic-key"
HIDDEN_MIN = 0.50
LAZY_TOOLS = ("get_work_order_detail", "get_unit_appliances", "get_dispatch_details")


@dataclass(frozen=True)
class Turn:
    """One first message and the lazy call the model answers it with."""

    phone: str
    body: str
    tool: str
    input: dict[str, Any]


@dataclass
class Done:
    mode: str
    turn: Turn
    seconds: float
    interaction_id: str


@dataclass
class ModeFigures:
    latencies_ms: list[float] = field(default_factory=list)
    lazy_ms: list[float] = field(default_factory=list)  # every lazy call's wait
    hit_ms: list[float] = field(default_factory=list)  # the calls served from a prefetch
    missed_ms: list[float] = field(default_factory=list)  # the calls that ran their own lookup
    fetched: int = 0
    wasted: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    missing_traces: int = 0


def plan(count: int) -> list[Turn]:
    """`count` first messages, in rotation: tenant work order, tenant appliance, vendor dispatch."""
    turns = []
    for i in range(count):
        wo = f"WO-{900 + i}"
        kind = i % 3
        if kind == 0:
            turns.append(Turn(_phone(i), f"Hi, any update on {wo}? Nobody has come by yet.",
                              "get_work_order_detail", {"work_order_id": wo}))
        elif kind == 1:
            turns.append(Turn(_phone(i), "My dishwasher is not working again, what model is it?",
                              "get_unit_appliances", {}))
        else:
            turns.append(Turn(_phone(i), f"On my way to {wo} this afternoon, send me the details please",
                              "get_dispatch_details", {"work_order_id": wo}))
    return turns


def _phone(i: int) -> str:
    return f"+1206556{i:04d}"


async def seed_table(table: str, endpoint_url: str, turns: list[Turn]) -> None:
    """The demo data plus, per turn, its sender: a tenant in a unit of their own with an open work
    order there, or a vendor's contact with a work order assigned to that vendor. Written to moto
    directly (the delay is for the turns, not the setup)."""
    from spine.demo import _DISHWASHER, _FRIDGE, seed
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
    from spine.property import Unit, Vendor
    from spine.repo import Spine
    from spine.store.dynamodb import DynamoStore
    from spine.work import WorkOrder, WorkOrderStatus

    spine = Spine(DynamoStore(table=table, endpoint_url=endpoint_url, create_missing=True))
    try:
        await seed(spine)
        for i, turn in enumerate(turns):
            pid, unit = f"p_bench_{i:03d}", f"u_bench_{i:03d}"
            vendor = turn.tool == "get_dispatch_details"
            await spine.put_unit(Unit(id=unit, property_id="pf_yale", number=f"9{i:02d}", bedrooms=1,
                                      monthly_rent_usd=1900, appliances=[_FRIDGE, _DISHWASHER]))
            await spine.put_person(Person(id=pid, display_name=f"Bench {i}",
                                          claims=[Claim(kind=ClaimKind.PHONE, value=turn.phone)]))
            if vendor:
                await spine.put_vendor(Vendor(id=f"v_bench_{i:03d}", name=f"Bench Plumbing {i}", trade="plumbing",
                                              services_property_ids=["pf_yale"]))
                scope = RoleScope(vendor_id=f"v_bench_{i:03d}")
                role = PersonRoleType.VENDOR_CONTACT
            else:
                scope = RoleScope(org_id="org_propflow", property_id="pf_yale", unit_id=unit,
                                  occupancy=OccupancyKind.PRIMARY)
                role = PersonRoleType.TENANT
            await spine.put_role(PersonRole(id=f"r_{pid}", person_id=pid, role_type=role,
                                            source=PersonRoleSource.PMS_SYNC, scope=scope))
            await spine.put_work_order(WorkOrder(
                id=f"wo_{900 + i}", display_id=f"WO-{900 + i}", property_id="pf_yale", unit_id=unit,
                status=WorkOrderStatus.IN_PROGRESS, brief=f"dishwasher not draining, unit 9{i:02d}",
                description="Dishwasher leaves standing water after every cycle.",
                assigned_vendor_id=f"v_bench_{i:03d}" if vendor else "v_inhouse"))
    finally:
        await spine.store.close()


def model_answers(turns: list[Turn]) -> Any:
    """The stand-in's answer to a request: the turn's lazy call to its first message, text to
    anything else (a tool result, a message of no turn)."""
    from tests.support.anthropic_server import text, tool_use

    calls = {t.body: t for t in turns}

    def answer(body: dict[str, Any]) -> Any:
        content = body["messages"][-1]["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        said = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
        turn = calls.get(said) if not any(b.get("type") == "tool_result" for b in blocks) else None
        if turn is None:
            return text("Thanks, here is what I found: the details are on file and we are on it today.")
        return tool_use(turn.tool, turn.input, id=f"toolu_{uuid.uuid4().hex[:20]}")

    return answer


def deploy(mode: str, port: int, model_url: str, store_url: str) -> None:
    from ray import serve

    from gateway.app import build_app

    env = {"GATEWAY_STORE": store_url, "GATEWAY_MODEL": "anthropic", "ANTHROPIC_API_KEY": API_KEY,
           "ANTHROPIC_BASE_URL": model_url, "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
           "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{port}"}
    runtime = {"namespace": f"bench-prefetch-{mode}", "hosts": 1, "host_num_cpus": 0.25,
               "dispatcher_num_cpus": 0.25, "detached": False, "prefetch": mode == "on"}
    serve.run(build_app({"runtime": runtime, "env": env}), name=f"clara-{mode}", route_prefix=f"/{mode}")


async def send(http: Any, base_url: str, mode: str, turn: Turn) -> Done:
    """One signed Twilio webhook to the mode's gateway; the reply must be Clara's, inline."""
    from gateway.cli.sms import inbound_form
    from gateway.sms.signature import sign

    path = f"/{mode}/sms/twilio"
    form = inbound_form(from_=turn.phone, to=YALE, body=turn.body, message_sid="SM" + uuid.uuid4().hex,
                        account_sid="AC" + "0" * 32)
    headers = {"X-Twilio-Signature": sign(AUTH_TOKEN, base_url + path, form)}
    started = time.perf_counter()
    response = await http.post(path, data=form, headers=headers)
    seconds = time.perf_counter() - started
    if response.status_code != 200 or "<Message>" not in response.text or "Sorry" in response.text:
        raise RuntimeError(f"{mode} answered {response.status_code}: {response.text[:300]}")
    return Done(mode, turn, seconds, response.headers.get("X-Clara-Interaction-Id", ""))


async def load(base_url: str, warm: list[Turn], measured: list[Turn], concurrency: int) -> list[Done]:
    """The warm-up turns, then the measured ones: each turn in both modes, one after the other,
    `concurrency` in flight, so both modes meet the same machine."""
    import httpx

    gate = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base_url, timeout=60.0) as http:
        async def one(mode: str, turn: Turn) -> Done:
            async with gate:
                return await send(http, base_url, mode, turn)

        await asyncio.gather(*(one(m, t) for t in warm for m in MODES))
        return list(await asyncio.gather(*(one(m, t) for t in measured for m in MODES)))


async def figures(done: list[Done], mode: str, table: str, endpoint_url: str) -> ModeFigures:
    """What the mode's traces say: each lazy call's wait (prefetched or not) and each lookup's end."""
    from spine.repo import Spine
    from spine.store.dynamodb import DynamoStore

    out = ModeFigures(latencies_ms=[d.seconds * 1000 for d in done if d.mode == mode])
    spine = Spine(DynamoStore(table=table, endpoint_url=endpoint_url))
    try:
        traces = [await spine.get_trace(d.interaction_id) for d in done if d.mode == mode]
    finally:
        await spine.store.close()
    for trace in traces:
        if trace is None:
            out.missing_traces += 1
            continue
        for call in trace.tool_calls:
            if call.name in LAZY_TOOLS:
                out.lazy_ms.append(call.latency_ms)
                (out.hit_ms if call.prefetched else out.missed_ms).append(call.latency_ms)
        for lookup in trace.prefetch:
            out.fetched += 1
            out.wasted += lookup.status != "hit"
            out.statuses[str(lookup.status)] = out.statuses.get(str(lookup.status), 0) + 1
    return out


def _ms(values: list[float]) -> str:
    return f"mean {statistics.mean(values):6.1f} ms (n={len(values)})" if values else "none"


def report(result: dict[str, ModeFigures], proxy_delays: list[float], args: argparse.Namespace) -> bool:
    on, off = result["on"], result["off"]
    print(f"\nmodel: {args.ttft_ms:.0f} ms to first token + {args.token_ms:.0f} ms/token; store: moto behind a "
          f"{args.store_low_ms:.0f}-{args.store_high_ms:.0f} ms proxy ({len(proxy_delays)} requests, mean "
          f"{statistics.mean(proxy_delays) * 1000 if proxy_delays else 0:.1f} ms); {args.turns} turns per mode,"
          f" {args.concurrency} in flight")
    print(f"{'prefetch':10}{'turn p50':>10}{'turn p95':>10}{'lazy calls':>12}{'lazy total':>12}"
          f"{'fetched':>9}{'wasted':>8}")
    for mode, f in result.items():
        print(f"{mode:10}{pct(f.latencies_ms, 50):>8.0f}ms{pct(f.latencies_ms, 95):>8.0f}ms{len(f.lazy_ms):>12}"
              f"{sum(f.lazy_ms):>10.0f}ms{f.fetched:>9}{f.wasted:>8}")
    print(f"on: calls served from a prefetch {_ms(on.hit_ms)}; calls that ran their own lookup {_ms(on.missed_ms)}")
    print(f"off: every call a lookup of its own {_ms(off.missed_ms)}")
    print(f"prefetch lookups by status: {dict(sorted(on.statuses.items()))}; waste (fetched, never used): "
          f"{on.wasted}/{on.fetched} = {on.wasted / on.fetched if on.fetched else 0:.0%}")
    if on.missing_traces or off.missing_traces:
        print(f"traces missing: on {on.missing_traces}, off {off.missing_traces}")
    hidden = 1 - sum(on.lazy_ms) / sum(off.lazy_ms) if sum(off.lazy_ms) else 0.0
    ok = hidden >= HIDDEN_MIN and len(on.lazy_ms) == len(off.lazy_ms) > 0
    print(f"prefetch hides {hidden:.0%} of the lazy tools' latency ({sum(on.lazy_ms):.0f} ms on against "
          f"{sum(off.lazy_ms):.0f} ms off; target >= {HIDDEN_MIN:.0%}: {'met' if ok else 'NOT met'})")
    return ok


def run(args: argparse.Namespace) -> tuple[dict[str, ModeFigures], list[float]]:
    """Moto, the delaying proxy and the model stand-in in this process; Ray and both gateways."""
    import ray
    from ray import serve

    from bench.delay_proxy import DelayProxy
    from tests.support.anthropic_server import AnthropicStandIn
    from tests.support.moto_server import start_moto_server
    from tests.support.ray_fixtures import free_port

    turns = plan(args.warmup + args.turns)
    warm, measured = turns[:args.warmup], turns[args.warmup:]
    moto = start_moto_server()
    proxy = DelayProxy(moto.endpoint_url, args.store_low_ms / 1000, args.store_high_ms / 1000, seed=args.seed)
    model = AnthropicStandIn(api_key=API_KEY, latency_s=args.ttft_ms / 1000, token_s=args.token_ms / 1000)
    model.default_reply = model_answers(turns)
    workdir = Path(tempfile.mkdtemp(prefix="clara-bench-prefetch-"))
    tables = {mode: f"bench-prefetch-{mode}-{uuid.uuid4().hex[:8]}" for mode in MODES}
    with moto.credentials(), proxy, model:  # Ray's workers inherit the dummy AWS credentials
        for table in tables.values():
            asyncio.run(seed_table(table, moto.endpoint_url, turns))
        os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
        ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
                 _temp_dir=str(workdir / "ray"), configure_logging=False)
        try:
            port = free_port()
            serve.start(http_options={"host": "127.0.0.1", "port": port})
            for mode, table in tables.items():
                deploy(mode, port, model.url, f"dynamodb://{table}?endpoint_url={proxy.url}&region=us-east-1")
            proxy.delays.clear()  # the turns' store requests, not the replicas' start
            done = asyncio.run(load(f"http://127.0.0.1:{port}", warm, measured, args.concurrency))
            delays = list(proxy.delays)
            result = {mode: asyncio.run(figures(done, mode, table, moto.endpoint_url)) for mode, table in tables.items()}
        finally:
            serve.shutdown()
            ray.shutdown()
    moto.stop()
    return result, delays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40, help="measured turns per mode")
    parser.add_argument("--warmup", type=int, default=3, help="turns per mode before measuring")
    parser.add_argument("--concurrency", type=int, default=4, help="turns in flight (both modes together)")
    parser.add_argument("--ttft-ms", type=float, default=400.0, help="the model's time to first token")
    parser.add_argument("--token-ms", type=float, default=10.0, help="the model's time per output token")
    parser.add_argument("--store-low-ms", type=float, default=10.0)
    parser.add_argument("--store-high-ms", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=27, help="of the store delays")
    args = parser.parse_args()
    started = time.monotonic()
    result, delays = run(args)
    ok = report(result, delays, args)
    print(f"bench took {time.monotonic() - started:.0f} s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
