"""Voice latency, side by side in one run.

1. Personalization: bursts of 50 concurrent `POST /voice/personalization` calls from 50 different
   callers (each a new call: route the caller, load personContext, build [CONTEXT], record the call's
   trace) against the gateway's app served by uvicorn in its own processes, as many as ray_config.yaml
   starts GatewayIngress replicas with (or --replicas), over a seeded SQLite store (the demo data plus
   60 bench tenants, half with a stored personContext). Criterion: p99 <= 50 ms.
2. Media relay: one call's 20 ms mu-law frames, paced as Twilio paces them, each echoed back by the
   ElevenLabs stand-in (its own process). Direct: the client speaks the Agents protocol to the
   stand-in. Bridged: the client speaks Twilio Media Streams to `WS /voice/twilio/stream` (the real
   route and CallBridge), which relays to the same stand-in and back. Each frame crosses the bridge
   twice per round trip. Criterion (the issue's "per relayed media frame"): the bridge adds <= 2 ms
   p99 per crossing, i.e. half the round trip's added p99; the round trip's own added p99 is
   printed beside it, and is judged against 2 ms too as the stricter reading.
3. A call moved to a person (bench/voice_transfer.py): from the `transfer_to_staff` tool call until
   the Calls API update leaves for Twilio, beside a plain server-tool call, 50 calls in progress, in
   this process. Criterion: within 1.5x of the plain call's p50 and p99.

    .venv/bin/python bench/voice.py [--bursts 20] [--frames 1000] [--replicas N]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from bench.measure import configured_replicas, cpu_ms, pct, summary  # noqa: E402
from tests.support.keepalive_client import KeepAlive  # noqa: E402
from tests.support.twilio_media_client import frame  # noqa: E402

TOKEN, SECRET = "bench-voice-token", "bench-twilio-token"
YALE = "+12065550100"
BENCH_TENANTS = 60
CALLERS = [f"+1206556{n:04d}" for n in range(BENCH_TENANTS)]


async def seed_bench_tenants(spine) -> None:
    """Sixty more tenants at JP Yale Station; the even ones have an open work order and a stored
    personContext pointing at it, the odd ones are first-time callers (pointers built from the store)."""
    from spine.context import ActivePointers, ActiveWorkOrder, PersonContext
    from spine.identity import (
        Claim,
        ClaimKind,
        OccupancyKind,
        Person,
        PersonRole,
        PersonRoleSource,
        PersonRoleType,
        RoleScope,
        utcnow,
    )
    from spine.property import Unit
    from spine.work import WorkOrder, WorkOrderStatus

    for n, phone in enumerate(CALLERS):
        unit = Unit(id=f"u_bench_{n}", property_id="pf_yale", number=f"B{n}", bedrooms=1, monthly_rent_usd=1800)
        await spine.put_unit(unit)
        await spine.put_person(Person(id=f"p_bench_{n}", display_name=f"Bench Tenant{n}",
                                      claims=[Claim(kind=ClaimKind.PHONE, value=phone)]))
        await spine.put_role(PersonRole(id=f"tr_bench_{n}", person_id=f"p_bench_{n}", role_type=PersonRoleType.TENANT,
                                        source=PersonRoleSource.PMS_SYNC, scope=RoleScope(
                                            org_id="org_propflow", property_id="pf_yale", unit_id=unit.id,
                                            occupancy=OccupancyKind.PRIMARY)))
        if n % 2 == 0:
            wo = WorkOrder(id=f"wo_bench_{n}", display_id=f"WO-{900 + n}", property_id="pf_yale", unit_id=unit.id,
                           status=WorkOrderStatus.IN_PROGRESS, brief=f"dripping faucet, unit B{n}",
                           description="Kitchen faucet drips.", assigned_vendor_id="v_inhouse")
            await spine.put_work_order(wo)
            await spine.put_context(PersonContext(
                person_id=f"p_bench_{n}", refreshed_at=utcnow(), summary="Texted about a dripping faucet.",
                active=ActivePointers(active_work_orders=[ActiveWorkOrder(
                    id=wo.id, display_id=wo.display_id, status=wo.status.value, brief=wo.brief)])))


# -- the server processes ------------------------------------------------------------------------
async def serve_echo() -> None:
    from tests.support.elevenlabs_server import AgentServer, Echo, standard_script

    async with AgentServer(standard_script(Echo())) as agent:
        print(agent.url, flush=True)
        await asyncio.Event().wait()


async def serve_gateway(store_path: str, ws_url: str, port: int) -> None:
    """One GatewayIngress-like replica: the gateway's app on uvicorn. Replicas share the port
    (SO_REUSEPORT: the kernel spreads connections, as Serve's proxy spreads requests) and the store."""
    import socket

    import uvicorn

    from actors.dispatcher.dispatcher import Dispatcher
    from actors.model.offline import OfflineModel
    from desk.portfolio.demo import seed
    from gateway.app import settle_heap
    from gateway.settings import Settings
    from gateway.voice.services import VoiceServices
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore
    from tests.support.voice_helpers import voice_app

    spine = Spine(SqliteStore(store_path))
    if not port:  # the first replica seeds
        await seed(spine)
        await seed_bench_tenants(spine)
    settings = Settings(voice_token=TOKEN, twilio_auth_token=SECRET, elevenlabs_ws_url=ws_url)
    app = voice_app(VoiceServices.build(settings, spine, Dispatcher(spine), OfflineModel()))
    settle_heap()  # as GatewayIngress does once started
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # inherited by accepted sockets
    sock.bind(("127.0.0.1", port))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off", loop="uvloop", http="httptools"))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:
        await asyncio.sleep(0.01)
    print(sock.getsockname()[1], flush=True)
    await task


def spawn(*args: str) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    # Their logs (one JSON line per event) are still written, to /dev/null: the cost stays in.
    proc = subprocess.Popen([sys.executable, __file__, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env)
    return proc, proc.stdout.readline().strip()


# -- measurements --------------------------------------------------------------------------------
def personalization_request(n: int, port: int, *, token: bool) -> bytes:
    body = json.dumps({"caller_id": CALLERS[n % len(CALLERS)], "agent_id": "bench", "called_number": YALE,
                       "call_sid": f"CA_bench_{n}"}).encode()
    auth = f"Authorization: Bearer {TOKEN}\r\n" if token else ""
    head = (f"POST /voice/personalization HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{auth}"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n")
    return head.encode() + body


async def personalization(port: int, bursts: int, concurrency: int, *, floor: bool = False,
                          spread_s: float = 0.0) -> list[float]:
    """Latency of each call in bursts of `concurrency` (all at once, or ringing at random moments
    within `spread_s`), each on its own keep-alive connection. With `floor`, the same requests
    without the token: the route answers 401 at once, which measures the HTTP stack alone on this
    machine."""
    rng = random.Random(7)
    conns = [await KeepAlive.open(port) for _ in range(concurrency)]

    async def one(i: int, n: int, delay: float = 0.0) -> tuple[float, int, bytes]:
        request = personalization_request(n, port, token=not floor)
        await asyncio.sleep(delay)
        conn = conns[i]
        if conn.closed:  # the server (or a proxy) closed it while idle: reconnect off the clock
            conn = conns[i] = await KeepAlive.open(port)
        t0 = time.perf_counter()
        status, body = await conn.send(request)
        return (time.perf_counter() - t0) * 1000, status, body

    def check(n: int, status: int, body: bytes) -> None:
        if floor:
            assert status == 401, status
            return
        answer = json.loads(body)
        assert status == 200 and answer["dynamic_variables"]["interaction_id"] == f"voice-CA_bench_{n}"
        # Routed as the tenant they are; the name is withheld until the call is verified (an
        # ElevenLabs-native call never is: issue 28), so caller_known stays False here.
        assert "tenant" in answer["dynamic_variables"]["roles"], answer["dynamic_variables"]

    async def burst(first: int, spread: float) -> list[float]:
        delays = [rng.uniform(0, spread) if spread else 0.0 for _ in conns]
        results = await asyncio.gather(*(one(i, first + i, delays[i]) for i in range(len(conns))))
        for i, (_, status, body) in enumerate(results):
            check(first + i, status, body)
        await asyncio.sleep(0.2)  # let the burst's background trace writes land before the next ring
        return [elapsed for elapsed, _, _ in results]

    try:
        await burst(-concurrency, 0.0)  # warm connections and caches
        latencies: list[float] = []
        for b in range(bursts):
            latencies += await burst(b * concurrency, spread_s)
        return latencies
    finally:
        for conn in conns:
            conn.transport.close()


async def _paced(frames: int, send, receive) -> list[float]:
    rtts = []
    for i in range(frames):
        due = time.perf_counter() + 0.020
        t0 = time.perf_counter()
        await send(frame(i))
        await receive()
        rtts.append((time.perf_counter() - t0) * 1000)
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
    return rtts


async def direct(ws_url: str, frames: int) -> list[float]:
    async with connect(ws_url) as ws:
        await ws.send(json.dumps({"type": "conversation_initiation_client_data", "dynamic_variables": {},
                                  "conversation_config_override": {}}))
        await ws.recv()  # conversation_initiation_metadata

        async def send(payload: str) -> None:
            await ws.send(json.dumps({"user_audio_chunk": payload}))

        async def receive() -> None:
            while json.loads(await ws.recv()).get("type") != "audio":
                pass

        return await _paced(frames, send, receive)


async def bridged(port: int, frames: int) -> list[float]:
    from gateway.settings import Settings
    from gateway.twilio.signature import sign
    from gateway.twilio.twiml_voice import stream_parameters, stream_url

    # Twilio signs the upgrade over the stream URL the gateway's GATEWAY_PUBLIC_URL names.
    signed = {"X-Twilio-Signature": sign(SECRET, stream_url(Settings().public_url), {})}
    async with connect(f"ws://127.0.0.1:{port}/voice/twilio/stream", additional_headers=signed) as ws:
        sid = "MZbench"
        await ws.send(json.dumps({"event": "connected", "protocol": "Call", "version": "1.0.0"}))
        await ws.send(json.dumps({"event": "start", "streamSid": sid, "start": {
            "streamSid": sid, "callSid": "CA_bench_relay", "customParameters": stream_parameters(
                SECRET, "CA_bench_relay", CALLERS[0], YALE),
            "mediaFormat": {"encoding": "audio/x-mulaw", "sampleRate": 8000, "channels": 1}}}))
        chunk = 0

        async def send(payload: str) -> None:
            nonlocal chunk
            chunk += 1
            await ws.send(json.dumps({"event": "media", "streamSid": sid,
                                      "media": {"track": "inbound", "chunk": str(chunk), "payload": payload}}))

        async def receive() -> None:
            while json.loads(await ws.recv()).get("event") != "media":
                pass  # the bridge's playback marks

        await _paced(5, send, receive)  # the call is open and warm
        return await _paced(frames, send, receive)


async def main(args: argparse.Namespace) -> int:
    echo, ws_url = spawn("--role", "echo")
    store = Path(tempfile.mkdtemp(prefix="clara-bench-voice-")) / "clara.db"
    gateway, port = spawn("--role", "gateway", "--store", str(store), "--ws-url", ws_url, "--port", "0")
    replicas = [gateway] + [spawn("--role", "gateway", "--store", str(store), "--ws-url", ws_url, "--port", port)[0]
                            for _ in range(args.replicas - 1)]
    try:
        cpu0 = cpu_ms([p.pid for p in replicas])
        floor = await personalization(int(port), args.bursts, args.concurrency, floor=True)
        cpu1 = cpu_ms([p.pid for p in replicas])
        person = await personalization(int(port), args.bursts, args.concurrency)
        calls = (args.bursts + 1) * args.concurrency
        floor_cpu, server_cpu = (cpu1 - cpu0) / calls, (cpu_ms([p.pid for p in replicas]) - cpu1) / calls
        spread = await personalization(int(port), args.bursts, args.concurrency, spread_s=1.0)
        alone = await direct(ws_url, args.frames)
        through = await bridged(int(port), args.frames)
    finally:
        for proc in (*replicas, echo):
            proc.terminate()
            proc.wait(10)
    added_p99 = pct(through, 99) - pct(alone, 99)
    added_p50 = pct(through, 50) - pct(alone, 50)
    print(f"machine: {os.cpu_count()} CPUs, python {sys.version.split()[0]}; servers in their own processes\n")
    print(f"personalization, {args.concurrency} concurrent calls x {args.bursts} bursts "
          f"({args.replicas} replica(s) on uvicorn, SQLite):")
    print(f"  {summary(person)}   -> p99 <= 50 ms: {'PASS' if pct(person, 99) <= 50 else 'FAIL'}")
    print(f"  server CPU per call (all threads, incl. write-behind): {server_cpu:.2f} ms")
    print(f"  HTTP floor (same burst, answered 401 at once): {summary(floor)}   server CPU per call {floor_cpu:.2f} ms")
    print(f"  {args.concurrency} calls ringing within 1 s instead: {summary(spread)}\n")
    print(f"media relay, one call, {args.frames} frames of 20 ms, echo round trip:")
    print(f"  direct to agent stand-in : {summary(alone)}")
    print(f"  through the bridge       : {summary(through)}")
    per_frame = added_p99 / 2
    print(f"  added by the bridge      : p50 {added_p50:+.2f} ms   p99 {per_frame:+.2f} ms per relayed frame "
          f"-> <= 2 ms p99: {'PASS' if per_frame <= 2 else 'FAIL'}")
    print(f"  (per round trip, two crossings: p99 {added_p99:+.2f} ms; <= 2 ms as the stricter reading: "
          f"{'yes' if added_p99 <= 2 else 'no'})\n")
    moved = await transfer_cost(args)  # 3. the redirect of a call (bench/voice_transfer.py), in this process
    return 0 if pct(person, 99) <= 50 and per_frame <= 2 and moved else 1


async def transfer_cost(args: argparse.Namespace) -> bool:
    """A call moved to a person (transfer_to_staff) beside a plain server-tool call, with
    `--concurrency` calls in progress: all asking at once, then spread over 1 s."""
    import logging

    from bench.voice_transfer import measure, report

    logging.disable(logging.WARNING)  # the events' log lines are not what is measured
    report(*await measure(args.concurrency, args.transfer_rounds), args.concurrency)
    return report(*await measure(args.concurrency, args.transfer_rounds, 1.0), args.concurrency, 1.0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bursts", type=int, default=20)
    parser.add_argument("--concurrency", type=int, default=50)
    parser.add_argument("--frames", type=int, default=1000)  # p99 from the 10 slowest, not the 4
    parser.add_argument("--transfer-rounds", type=int, default=10)
    parser.add_argument("--replicas", type=int, default=configured_replicas(),
                        help="gateway processes sharing the port (default: ray_config.yaml's min_replicas)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--role", choices=["echo", "gateway"])
    parser.add_argument("--store")
    parser.add_argument("--ws-url")
    parsed = parser.parse_args()
    if parsed.role == "echo":
        asyncio.run(serve_echo())
    elif parsed.role == "gateway":
        asyncio.run(serve_gateway(parsed.store, parsed.ws_url, parsed.port))
    else:
        sys.exit(asyncio.run(main(parsed)))
