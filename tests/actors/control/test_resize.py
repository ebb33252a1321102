"""Resizing live: `serve deploy` with a changed user_config under steady SMS load over real HTTP.

2 -> 3 -> 1 PersonActor hosts while regulars and newcomers text: nothing accepted is lost or
answered twice; an added host takes new people at once; removed hosts drain (their people's
personContext refreshed, their leases released) and are gone from Ray; /admin/actors lists
exactly the configured hosts; a changed idle limit reaches the running hosts.
"""
from __future__ import annotations

import asyncio
import contextlib
import uuid

import httpx
import pytest
import ray

from actors.control.reconciler import RECONCILER_NAME
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.resize_helpers import (
    COUNTED_TURN,
    SteadyLoad,
    deploy_schema,
    hosts_alive,
    serve_deploy,
    settled,
    tally,
)
from tests.support.serve_helpers import seeded_store, serve_http_port
from tests.support.twilio_server import TwilioStandIn

pytestmark = pytest.mark.ray("actors")

APP = "clara-resize"
AUTH_TOKEN = "resize-twilio-token"
ADMIN = {"Authorization": "Bearer resize-admin-token"}


@pytest.fixture(scope="module")
async def store_path(tmp_path_factory):
    return await seeded_store(tmp_path_factory.mktemp("resize"))


@pytest.fixture(scope="module")
def twilio():
    with TwilioStandIn(auth_token=AUTH_TOKEN) as server:
        yield server


@pytest.fixture(scope="module")
def deployment(ray_session, store_path, twilio):
    """deploy(hosts, **runtime) applies the config as `serve deploy` does; the namespace's
    detached actors are killed at the end, the reconciler first (it would replace them)."""
    from ray import serve

    url = f"http://127.0.0.1:{serve_http_port()}"
    namespace = f"resize-{uuid.uuid4().hex[:8]}"
    env = {"GATEWAY_STORE": f"sqlite:///{store_path}", "GATEWAY_MODEL": "offline", "TWILIO_AUTH_TOKEN": AUTH_TOKEN,
           "TWILIO_ACCOUNT_SID": twilio.account_sid, "TWILIO_API_BASE": twilio.url, "GATEWAY_PUBLIC_URL": url,
           "GATEWAY_ADMIN_TOKEN": ADMIN["Authorization"].split()[1]}

    async def deploy(hosts: int, **runtime) -> float:
        serve_deploy(deploy_schema(app=APP, env=env, runtime={"namespace": namespace, "hosts": hosts,
                                                              "host_num_cpus": 0.1, "dispatcher_num_cpus": 0.1,
                                                              "turn_function": COUNTED_TURN, **runtime}))
        return await settled(APP, namespace, hosts)

    yield url, namespace, deploy
    serve.delete(APP)
    for name in [RECONCILER_NAME, *hosts_alive(namespace), "clara-dispatcher"]:
        with contextlib.suppress(ValueError):
            ray.kill(ray.get_actor(name, namespace=namespace), no_restart=True)


async def admin_hosts(url: str) -> tuple[list[str], set[str]]:
    async with httpx.AsyncClient(base_url=url, timeout=10.0) as http:
        listing = (await http.get("/admin/actors", headers=ADMIN)).json()
    return listing["hosts"], {a["host"].rpartition("/")[2] for a in listing["actors"]}


async def admin_hosts_after(url: str, wait_s: float, holder: str | None = None) -> tuple[list[str], set[str]]:
    """The admin listing `wait_s` after a resize settled; with `holder`, as soon as that host holds
    someone (up to 5 s more): new people reach it with the next messages that hash to it, and a
    few seconds of steady load send only a handful of newcomers."""
    await asyncio.sleep(wait_s)
    listed, holding = await admin_hosts(url)
    for _ in range(25):
        if holder is None or holder in holding:
            break
        await asyncio.sleep(0.2)
        listed, holding = await admin_hosts(url)
    return listed, holding


async def test_resize_2_3_1_under_steady_sms_loses_and_duplicates_nothing(deployment, store_path, twilio):
    url, namespace, deploy = deployment
    await deploy(2)
    load = SteadyLoad(url, AUTH_TOKEN, twilio.account_sid)
    load.start()
    steps = []
    for hosts, runtime in [(3, {}), (1, {"idle_deactivate_s": 1.0})]:
        await asyncio.sleep(1.0)
        before = len(load.sent)
        took = await deploy(hosts, **runtime)
        listed, holding = await admin_hosts_after(url, 1.0, holder="clara-host-2" if hosts == 3 else None)
        steps.append((hosts, took, before, hosts_alive(namespace), listed, holding, list(load.sent[before:])))
    await load.stop()

    spine = Spine(SqliteStore(store_path))
    try:
        rest = [s.body for s in twilio.accepted()]
        for hosts, took, _, alive, _listed, _holding, during in steps:
            print(f"-> {hosts} hosts (settled in {took:.1f}s): {(await tally(spine, during, rest)).line()}; alive {alive}")
        total = await tally(spine, load.sent, rest)
        print(f"whole run: {total.line()}")
        assert total.sent >= 40 and total.lost == 0 and total.duplicated == 0 and total.answered == total.sent

        [(_, _, _, alive3, listed3, holding3, _during3), (_, _, _, alive1, listed1, holding1, _)] = steps
        assert alive3 == listed3 == ["clara-host-0", "clara-host-1", "clara-host-2"]
        assert "clara-host-2" in holding3  # the added host took people at once
        assert alive1 == listed1 == ["clara-host-0"] and holding1 <= {"clara-host-0"}
        # the removed hosts drained: every lease names host-0 or no one, regulars' contexts refreshed
        regulars = ["p_marcus", "p_jordan", "p_ellen", "p_mike", "p_carlos", "p_priya"]
        keys = [f"person:{p}" for p in regulars] + [f"addr:{s.number}" for s in load.sent if s.number.startswith("+1415")]
        for key in keys:
            lease = await spine.store.get(f"OWNER#{key}")
            owner = lease.data["owner"] if lease else ""
            assert owner == "" or owner.startswith(f"{namespace}/clara-host-0#"), (key, lease.data)
        # the idle limit changed live from 300 s to 1 s: host-0's people end their interactions
        for _ in range(50):
            if not (await admin_hosts(url))[1]:
                break
            await asyncio.sleep(0.2)
        assert (await admin_hosts(url))[1] == set()
        contexts = {p: await spine.get_context(p) for p in regulars}
        assert [p for p, c in contexts.items() if c is None or c.refreshed_at is None] == []
    finally:
        await spine.store.close()
