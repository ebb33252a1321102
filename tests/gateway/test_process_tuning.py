"""The processes of a deployed gateway run as gateway/app.py and actors/heap.py tune them: the
GatewayIngress replica runs our code on its own event loop (the deployment's runtime_env reaches
the replica through Serve), and the replica, the PersonActor hosts and the DispatcherActor have
their start-up heap frozen and the youngest-generation threshold raised."""
from __future__ import annotations

import asyncio
import gc
import os

import pytest
import ray
from ray.exceptions import RayActorError

from actors.dispatcher.dispatcher_actor import DISPATCHER_NAME
from actors.heap import GC_THRESHOLDS
from actors.host.host import host_name
from gateway.app import INGRESS_ENV
from tests.support.serve_helpers import SHARED_APP, SHARED_NAMESPACE

pytestmark = pytest.mark.ray


def _process_state(_actor) -> tuple[dict[str, str | None], tuple[int, ...], int]:
    return {k: os.environ.get(k) for k in INGRESS_ENV}, gc.get_threshold(), gc.get_freeze_count()


async def _state_of(name: str, namespace: str) -> tuple[dict[str, str | None], tuple[int, ...], int]:
    """Asked of the process that has the name now: other tests on the shared gateway kill hosts,
    and the HostReconciler starts them again under the same name."""
    for _ in range(40):
        try:
            return await ray.get_actor(name, namespace=namespace).__ray_call__.remote(_process_state)
        except (RayActorError, ValueError):
            await asyncio.sleep(0.5)
    raise AssertionError(f"{name} never answered")


async def test_the_ingress_hosts_and_dispatcher_run_tuned(serve_gateway):
    [replica, *_] = [a for a in ray.util.list_named_actors(all_namespaces=True)
                     if a["name"].startswith(f"SERVE_REPLICA::{SHARED_APP}#GatewayIngress")]
    env, thresholds, frozen = await _state_of(replica["name"], replica["namespace"])
    assert env == INGRESS_ENV
    assert thresholds == GC_THRESHOLDS and frozen > 10_000
    for name in [host_name(0), host_name(1), DISPATCHER_NAME]:  # the shared gateway's two hosts
        _, thresholds, frozen = await _state_of(name, SHARED_NAMESPACE)
        assert thresholds == GC_THRESHOLDS and frozen > 10_000
