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

from actors.heap import GC_THRESHOLDS
from gateway.app import INGRESS_ENV
from tests.support.serve_helpers import SHARED_APP, SHARED_NAMESPACE

pytestmark = pytest.mark.ray


def _process_state(_actor) -> tuple[dict[str, str | None], tuple[int, ...], int]:
    return {k: os.environ.get(k) for k in INGRESS_ENV}, gc.get_threshold(), gc.get_freeze_count()


def _named(name_part: str, namespace: str | None = None) -> list[tuple[str, str]]:
    return [(a["name"], a["namespace"]) for a in ray.util.list_named_actors(all_namespaces=True)
            if name_part in a["name"] and (namespace is None or a["namespace"] == namespace)]


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
    [replica, *_] = _named(f"SERVE_REPLICA::{SHARED_APP}#GatewayIngress")
    env, thresholds, frozen = await _state_of(*replica)
    assert env == INGRESS_ENV
    assert thresholds == GC_THRESHOLDS and frozen > 10_000
    for _ in range(40):  # two hosts and the DispatcherActor (a killed host is back within seconds)
        pool = [*_named("clara-host-", SHARED_NAMESPACE), *_named("clara-dispatcher", SHARED_NAMESPACE)]
        if len(pool) == 3:
            break
        await asyncio.sleep(0.5)
    assert len(pool) == 3, pool
    for name, namespace in pool:
        _, thresholds, frozen = await _state_of(name, namespace)
        assert thresholds == GC_THRESHOLDS and frozen > 10_000
