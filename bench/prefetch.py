"""Speculative prefetch measured where it matters: a slow model and a store across a network.

One private Ray and Serve proxy, two gateway applications side by side (`/on` and `/off`), the
same in all but RuntimeConfig.prefetch (`runtime: {prefetch: false}` in ray_config.yaml):
  * the model: the Anthropic stand-in (tests/support/anthropic_server.py) through the product's
    ANTHROPIC_BASE_URL, answering after a time to first token (default 400 ms) plus generation
    per output token; its first answer to a first message is the lazy tool call the message asks
    for, its answer to the tool result is text;
  * the store: DynamoDB on moto (in a process of its own), one table per application seeded
    alike, behind bench/delay_proxy.py (every request held 10-30 ms, uniform, seeded), reached
    through the ordinary GATEWAY_STORE URL.
Each turn is a signed SMS, the first message of its own tenant or vendor, whose tool call is one
of the lookups tools.prefetch guesses: a tenant asking about their work order
(get_work_order_detail) or an appliance (get_unit_appliances), a vendor asking for a dispatch
(get_dispatch_details). The two modes' turns are interleaved, a few at a time, so both meet the
same machine. Afterwards every turn's trace is read from the store: its tool calls (`prefetched`,
`latency_ms`: what the call waited) and its prefetch report.

Prints, per mode, the turn latency p50/p95 (the webhook round trip the sender waits), the lazy
tools' latency total, the share of it prefetch hides (1 - on/off) and the hit calls' wait
against a lookup's, the waste (lookups fetched that no tool call used), the trace's own split of
the turn and the store requests each SMS makes, by operation. Criterion: prefetch hides at least
50% of the lazy tools' latency (exit 1 when not met). About 2-2.5 minutes, half of it Ray starting.
A served call still waits for the gate's decision (serve_prefetched re-decides every hit: one
work-order read for these tools), so only part of a lookup can be hidden; with an instant model
(--ttft-ms 0 --token-ms 0) nothing is hidden and the criterion fails.

    .venv/bin/python bench/prefetch.py [--turns 40] [--concurrency 6] [--ttft-ms 400] [--token-ms 10]
"""
from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.measure import pct  # noqa: E402
from bench.prefetch_turns import LAZY_TOOLS, Turn, model_answers, plan, seed_table  # noqa: E402
from bench.sms import AUTH_TOKEN  # noqa: E402

MODES = ("on", "off")
API_KEY = "bench-anthropic-key"
HIDDEN_MIN = 0.50


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
    by_tool: dict[str, list[float]] = field(default_factory=dict)
    turn_ms: dict[str, list[float]] = field(default_factory=dict)  # the trace's total / model / tools
    trace_reads: list[int] = field(default_factory=list)  # the store reads each trace counts
    fetched: int = 0
    wasted: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    missing_traces: int = 0


def deploy(port: int, model_url: str, store_urls: dict[str, str]) -> None:
    """Both gateways at once (`/on`, `/off`), alike but for RuntimeConfig.prefetch."""
    from ray import serve

    from gateway.app import build_app

    targets = []
    for mode, store_url in store_urls.items():
        env = {"GATEWAY_STORE": store_url, "GATEWAY_MODEL": "anthropic", "ANTHROPIC_API_KEY": API_KEY,
               "ANTHROPIC_BASE_URL": model_url, "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
               "GATEWAY_PUBLIC_URL": f"http://127.0.0.1:{port}"}
        runtime = {"namespace": f"bench-prefetch-{mode}", "hosts": 1, "host_num_cpus": 0.25,
                   "dispatcher_num_cpus": 0.25, "detached": False, "prefetch": mode == "on"}
        targets.append(serve.RunTarget(build_app({"runtime": runtime, "env": env}), name=f"clara-{mode}",
                                       route_prefix=f"/{mode}"))
    serve.run_many(targets)


async def send(http: Any, base_url: str, mode: str, turn: Turn) -> Done:
    """One signed Twilio webhook to the mode's gateway; the reply must be Clara's, inline."""
    from desk.portfolio.demo import YALE_NUMBER
    from gateway.cli.sms import inbound_form
    from gateway.twilio.signature import sign

    path = f"/{mode}/sms/twilio"
    form = inbound_form(from_=turn.phone, to=YALE_NUMBER, body=turn.body, message_sid="SM" + uuid.uuid4().hex,
                        account_sid="AC" + "0" * 32)
    headers = {"X-Twilio-Signature": sign(AUTH_TOKEN, base_url + path, form)}
    started = time.perf_counter()
    response = await http.post(path, data=form, headers=headers)
    seconds = time.perf_counter() - started
    if response.status_code != 200 or "<Message>" not in response.text or "Sorry" in response.text:
        raise RuntimeError(f"{mode} answered {response.status_code}: {response.text[:300]}")
    return Done(mode, turn, seconds, response.headers.get("X-Clara-Interaction-Id", ""))


async def load(base_url: str, turns: list[Turn], concurrency: int) -> list[Done]:
    """Each turn in both modes, one after the other, `concurrency` in flight, so both modes meet
    the same machine."""
    import httpx

    gate = asyncio.Semaphore(concurrency)
    async with httpx.AsyncClient(base_url=base_url, timeout=60.0) as http:
        async def one(mode: str, turn: Turn) -> Done:
            async with gate:
                return await send(http, base_url, mode, turn)

        return list(await asyncio.gather(*(one(m, t) for t in turns for m in MODES)))


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
        out.trace_reads.append(sum(trace.store_reads.values()))
        for part in ("total", "model", "tools"):
            out.turn_ms.setdefault(part, []).append(getattr(trace.latency_ms, part))
        for call in trace.tool_calls:
            if call.name in LAZY_TOOLS:
                out.lazy_ms.append(call.latency_ms)
                out.by_tool.setdefault(call.name, []).append(call.latency_ms)
                (out.hit_ms if call.prefetched else out.missed_ms).append(call.latency_ms)
        for lookup in trace.prefetch:
            out.fetched += 1
            out.wasted += lookup.status != "hit"
            out.statuses[str(lookup.status)] = out.statuses.get(str(lookup.status), 0) + 1
    return out


def _ms(values: list[float]) -> str:
    return f"mean {statistics.mean(values):6.1f} ms (n={len(values)})" if values else "none"


@dataclass
class Traffic:
    """The measured turns' store requests, as the proxy saw them."""

    delays: list[float]
    operations: dict[str, int]


def report(result: dict[str, ModeFigures], traffic: Traffic, args: argparse.Namespace) -> bool:
    proxy_delays = traffic.delays
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
    for tool in LAZY_TOOLS:
        print(f"  {tool:24} off {_ms(off.by_tool.get(tool, []))}   on {_ms(on.by_tool.get(tool, []))}")
    for mode, f in result.items():
        print(f"  {mode:3} the trace's turn, median: " + ", ".join(
            f"{part} {statistics.median(values):.0f} ms" for part, values in f.turn_ms.items())
            + f"; store reads it counts {statistics.mean(f.trace_reads):.1f} on average")
    print(f"store requests per turn through the proxy (reads and writes, the whole SMS path): "
          f"{len(proxy_delays) / (turns := len(on.latencies_ms) + len(off.latencies_ms)):.1f} ("
          + ", ".join(f"{op} {n / turns:.1f}" for op, n in sorted(traffic.operations.items(), key=lambda o: -o[1]))
          + ")")
    print(f"prefetch lookups by status: {dict(sorted(on.statuses.items()))}; waste (fetched, never used): "
          f"{on.wasted}/{on.fetched} = {on.wasted / on.fetched if on.fetched else 0:.0%}")
    if on.missing_traces or off.missing_traces:
        print(f"traces missing: on {on.missing_traces}, off {off.missing_traces}")
    hidden = 1 - sum(on.lazy_ms) / sum(off.lazy_ms) if sum(off.lazy_ms) else 0.0
    ok = hidden >= HIDDEN_MIN and len(on.lazy_ms) == len(off.lazy_ms) > 0
    print(f"prefetch hides {hidden:.0%} of the lazy tools' latency ({sum(on.lazy_ms):.0f} ms on against "
          f"{sum(off.lazy_ms):.0f} ms off; target >= {HIDDEN_MIN:.0%}: {'met' if ok else 'NOT met'})")
    return ok


@contextmanager
def moto_process() -> Iterator[str]:
    """moto in a process of its own, its endpoint URL: moto's CPU (it serves one request at a
    time) must not share a GIL with the proxy, the model stand-in and the senders, or the store's
    latency is this bench's own queueing rather than the proxy's 10-30 ms."""
    context = multiprocessing.get_context("spawn")
    urls: Any = context.Queue()
    child = context.Process(target=_serve_moto, args=(urls,), name="moto", daemon=True)
    child.start()
    try:
        yield urls.get(timeout=180)
    finally:
        child.terminate()
        child.join(10)


def _serve_moto(urls: Any) -> None:
    from tests.support.moto_server import start_moto_server

    server = start_moto_server()
    urls.put(server.endpoint_url)
    server.thread.join()


async def _seed_all(tables: list[str], moto_url: str, turns: list[Turn]) -> None:
    await asyncio.gather(*(seed_table(table, moto_url, turns) for table in tables))


def run(args: argparse.Namespace) -> tuple[dict[str, ModeFigures], Traffic]:
    """moto (its own process), the delaying proxy and the model stand-in; Ray and both gateways."""
    import ray
    from ray import serve

    from bench.delay_proxy import DelayProxy
    from tests.support.anthropic_server import AnthropicStandIn
    from tests.support.moto_server import AWS_ENV
    from tests.support.ray_fixtures import free_port

    started = time.monotonic()
    turns = plan(args.warmup + args.turns)
    warm, measured = turns[:args.warmup], turns[args.warmup:]
    model = AnthropicStandIn(api_key=API_KEY, latency_s=args.ttft_ms / 1000, token_s=args.token_ms / 1000)
    model.default_reply = model_answers(turns)
    workdir = Path(tempfile.mkdtemp(prefix="clara-bench-prefetch-"))
    tables = {mode: f"bench-prefetch-{mode}-{uuid.uuid4().hex[:8]}" for mode in MODES}
    os.environ.update(AWS_ENV)  # botocore signs every request; Ray's workers inherit them
    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    with moto_process() as moto_url, DelayProxy(moto_url, args.store_low_ms / 1000, args.store_high_ms / 1000,
                                                seed=args.seed) as proxy, model:
        asyncio.run(_seed_all(list(tables.values()), moto_url, turns))
        print(f"store seeded after {time.monotonic() - started:.0f} s", file=sys.stderr)
        ray.init(address="local", num_cpus=4, include_dashboard=False, log_to_driver=False,
                 _temp_dir=str(workdir / "ray"), configure_logging=False)
        try:
            port = free_port()
            serve.start(http_options={"host": "127.0.0.1", "port": port})
            deploy(port, model.url, {mode: f"dynamodb://{table}?endpoint_url={proxy.url}&region=us-east-1"
                                     for mode, table in tables.items()})
            print(f"gateways up after {time.monotonic() - started:.0f} s", file=sys.stderr)
            asyncio.run(load(f"http://127.0.0.1:{port}", warm, args.concurrency))
            proxy.delays.clear()  # the measured turns' store requests only
            proxy.operations.clear()
            print(f"set up in {time.monotonic() - started:.0f} s", file=sys.stderr)
            done = asyncio.run(load(f"http://127.0.0.1:{port}", measured, args.concurrency))
            traffic = Traffic(list(proxy.delays), dict(proxy.operations))
            result = {mode: asyncio.run(figures(done, mode, table, moto_url)) for mode, table in tables.items()}
        finally:
            serve.shutdown()
            ray.shutdown()
    return result, traffic


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=40, help="measured turns per mode")
    parser.add_argument("--warmup", type=int, default=3, help="turns per mode before measuring")
    parser.add_argument("--concurrency", type=int, default=6, help="turns in flight (both modes together)")
    parser.add_argument("--ttft-ms", type=float, default=400.0, help="the model's time to first token")
    parser.add_argument("--token-ms", type=float, default=10.0, help="the model's time per output token")
    parser.add_argument("--store-low-ms", type=float, default=10.0)
    parser.add_argument("--store-high-ms", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=27, help="of the store delays")
    args = parser.parse_args()
    started = time.monotonic()
    result, traffic = run(args)
    ok = report(result, traffic, args)
    print(f"bench took {time.monotonic() - started:.0f} s")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
