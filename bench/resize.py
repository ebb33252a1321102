"""Resize run: steady SMS load over real HTTP while `serve deploy` takes the PersonActor hosts
2 -> 3 -> 1 -> 2, then one host is killed for good (as a lost node would lose it).

For each step it prints messages sent, answered, lost and duplicated while that step ran, how
long the resize took to settle, and the hosts Ray holds alive afterwards; for the kill, how
long the host's people went unanswered. Criteria: 0 lost, 0 duplicated, only the configured
hosts alive after each step, and the killed host's people served again within 10 s.

The deploys are what `serve deploy ray_config.yaml` sends (the controller's apply_config) with
the real ray_config.yaml, only the host count (and this run's store and namespace) changed;
the turn is tests.support.turn_helpers:counted_turn, so a message whose turn ran twice is counted.

    .venv/bin/python bench/resize.py [--hold 4] [--regulars 8] [--newcomers 4] [--pause 0.05]
"""
from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ray

from actors.control.reconciler import RECONCILER_NAME
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.ray_fixtures import private_ray_init
from tests.support.resize_helpers import (
    COUNTED_TURN,
    SteadyLoad,
    deploy_schema,
    hosts_alive,
    serve_deploy,
    served_again_after,
    settled,
    tally,
)
from tests.support.serve_helpers import seeded_store, serve_http_port
from tests.support.twilio_server import TwilioStandIn

APP = "clara-resize-bench"
AUTH_TOKEN = "bench-twilio-token"


async def run(args: argparse.Namespace) -> int:
    from ray import serve

    workdir = Path(tempfile.mkdtemp(prefix="clara-resize-"))
    temp_dir = private_ray_init(num_cpus=4, tag="clara-resize-bench")
    namespace = f"bench-{uuid.uuid4().hex[:6]}"
    ok = True
    try:
        store = await seeded_store(workdir)
        with TwilioStandIn(auth_token=AUTH_TOKEN) as twilio:
            url = f"http://127.0.0.1:{serve_http_port()}"
            env = {"GATEWAY_STORE": f"sqlite:///{store}", "GATEWAY_MODEL": "offline", "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
                   "TWILIO_ACCOUNT_SID": twilio.account_sid, "TWILIO_API_BASE": twilio.url, "GATEWAY_PUBLIC_URL": url}
            runtime = {"namespace": namespace, "host_num_cpus": 0.1, "dispatcher_num_cpus": 0.1,
                       "turn_function": COUNTED_TURN}

            async def deploy(hosts: int) -> float:
                serve_deploy(deploy_schema(app=APP, env=env, runtime={**runtime, "hosts": hosts}))
                return await settled(APP, namespace, hosts)

            print(f"deployed 2 hosts in {await deploy(2):.1f}s; steady load: {args.regulars} regulars, "
                  f"{args.newcomers} newcomers, {args.pause * 1000:.0f} ms between a sender's messages")
            load = SteadyLoad(url, AUTH_TOKEN, twilio.account_sid, regulars=args.regulars, newcomers=args.newcomers, pause_s=args.pause)
            load.start()
            spine = Spine(SqliteStore(store))
            await asyncio.sleep(args.hold)
            for hosts in (3, 1, 2):
                before = len(load.sent)
                took = await deploy(hosts)
                await asyncio.sleep(args.hold)
                alive = hosts_alive(namespace)
                step = await tally(spine, load.sent[before:], [s.body for s in twilio.accepted()])
                print(f"step to {hosts} hosts: {step.line()}; settled in {took:.1f}s; alive {alive}")
                ok &= step.lost == 0 and step.duplicated == 0 and alive == [f"clara-host-{i}" for i in range(hosts)]
            before, killed_at = len(load.sent), time.monotonic()
            ray.kill(ray.get_actor("clara-host-1", namespace=namespace), no_restart=True)
            await asyncio.sleep(args.hold + 4)
            await load.stop()
            gap = served_again_after(load.sent, killed_at)
            step = await tally(spine, load.sent[before:], [s.body for s in twilio.accepted()])
            alive = hosts_alive(namespace)
            print(f"host-1 killed for good: {step.line()}; everyone served again after {gap:.1f}s; alive {alive}")
            ok &= step.lost == 0 and step.duplicated == 0 and gap < 10 and alive == ["clara-host-0", "clara-host-1"]
            whole = await tally(spine, load.sent, [s.body for s in twilio.accepted()])
            print(f"whole run: {whole.line()}")
            if whole.lost:
                print("first lost:", next(s for s in load.sent if s.answered_at is None))
            ok &= whole.lost == 0 and whole.duplicated == 0
            await spine.store.close()
            serve.delete(APP)
            for name in [RECONCILER_NAME, *hosts_alive(namespace), "clara-dispatcher"]:
                ray.kill(ray.get_actor(name, namespace=namespace), no_restart=True)
    finally:
        ray.shutdown()
        shutil.rmtree(temp_dir, ignore_errors=True)
        shutil.rmtree(workdir, ignore_errors=True)
    print("criteria met" if ok else "criteria NOT met")
    return 0 if ok else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hold", type=float, default=4.0, help="seconds of load after each step")
    parser.add_argument("--regulars", type=int, default=8)
    parser.add_argument("--newcomers", type=int, default=4)
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between one sender's messages")
    return asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    raise SystemExit(main())
