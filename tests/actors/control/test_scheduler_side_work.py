"""The scheduler runs the gateway's side work (the Buildium connector's) on its own loop: ticked
about every second, a failing tick retried, the ladders' loop never waiting for it."""
from __future__ import annotations

import asyncio

from actors.config import RuntimeConfig
from actors.control.scheduler import SchedulerService


class SlowWork:
    def __init__(self) -> None:
        self.ticks = 0

    async def tick(self, now=None) -> None:
        self.ticks += 1
        if self.ticks == 1:
            raise RuntimeError("Buildium is down")  # retried next tick
        await asyncio.sleep(30)  # a long poll: the ladders keep ticking meanwhile


class Factory:
    def __init__(self) -> None:
        self.work = SlowWork()

    def open(self, spine):
        return self.work


async def test_side_work_ticks_beside_the_ladders(tmp_path):
    factory = Factory()
    config = RuntimeConfig(store_url=f"sqlite:///{tmp_path / 's.db'}")
    service = SchedulerService(config.to_bytes(), None, tick_s=0.05, side_work=factory)
    await asyncio.sleep(1.5)
    ladder_ticks = service.ladders.stats.ticks
    for task in (service._loop, service._side):
        task.cancel()
    await asyncio.gather(service._loop, service._side, return_exceptions=True)
    await service.ladders.spine.store.close()
    assert factory.work.ticks == 2  # the failed tick, then the one still in its long poll
    assert ladder_ticks >= 10


async def test_no_side_work_without_a_factory(tmp_path):
    config = RuntimeConfig(store_url=f"sqlite:///{tmp_path / 's.db'}")
    service = SchedulerService(config.to_bytes(), None, tick_s=0.05)
    assert service._side is None
    service._loop.cancel()
    await asyncio.gather(service._loop, return_exceptions=True)
    await service.ladders.spine.store.close()
