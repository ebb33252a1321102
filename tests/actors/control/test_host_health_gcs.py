"""The GCS facts the HostReconciler reads when a host misses a ping (actors.control.host_health), in a
real Ray worker process like the reconciler's: the Ray state of an actor, the dead nodes, and
that reading them holds no new descriptor or thread (the 30-minute soak's reconciler grew 55 -> 58
descriptors at its first missed ping, when `ray.nodes()` opened a second GCS client)."""
from __future__ import annotations

import asyncio
import os

import pytest
import ray

from actors.control.host_health import dead_nodes, ray_actor_state

pytestmark = pytest.mark.ray("actors")


@ray.remote(num_cpus=0)
class Target:
    def ping(self) -> str:
        return "ok"


@ray.remote(num_cpus=0)
class Reader:
    """A process of its own that reads the GCS as the reconciler does."""

    def held(self) -> tuple[int, int]:
        """Open descriptors and threads of this process."""
        return len(os.listdir("/proc/self/fd")), len(os.listdir("/proc/self/task"))

    async def read(self, target: object) -> tuple[set[str], str]:
        return await dead_nodes(5.0), await ray_actor_state(target, 5.0)


async def test_reading_the_gcs_opens_no_descriptor_or_thread(ray_session):
    target, reader = Target.remote(), Reader.remote()
    await target.ping.remote()
    before = await reader.held.remote()  # before its first GCS read: nothing opened lazily yet
    for _ in range(5):
        assert await reader.read.remote(target) == (set(), "ALIVE")
    assert await reader.held.remote() == before


async def test_an_actor_killed_for_good_reads_dead(ray_session):
    target, reader = Target.remote(), Reader.remote()
    await target.ping.remote()
    ray.kill(target, no_restart=True)
    async with asyncio.timeout(30):
        while (await reader.read.remote(target))[1] != "DEAD":
            await asyncio.sleep(0.1)
