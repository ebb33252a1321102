"""PagingScheduler: the one actor per namespace that drives on-call ladders and drains the outbox.

Every `TICK_S`, or sooner when a ladder's next step falls due before that, it takes the next step
of each ladder that is due (desk.oncall.paging.advance_page), sends the rows those steps queued at once,
then hands the other due outbox rows to the sender. A level's timeout runs from the step that paged
it, so the next level leaves within its ack timeout plus the tick's own work (not plus a tick).
It keeps no state of its own: the ladders and the outbox live in the store, every step is taken
by compare-and-set on its page, and every row is claimed before it is sent, so a scheduler killed mid-tick and restarted by Ray (or a second one
racing it for a moment) neither repeats nor skips a step.

It knows no provider: the gateway hands it a `SenderFactory` (gateway.outbox_sender), whose
sender does the wire work. Without one (no credentials, or in tests) the ladders still advance
and their rows wait in the outbox.
"""
from __future__ import annotations

import asyncio
import logging
import time
from datetime import UTC, datetime
from typing import Any, Protocol

import ray

from actors.config import RuntimeConfig
from desk.dispatch.dispatch import DEFAULT_ACCEPT_WITHIN_S, due_dispatch_reminders
from desk.followups.engine import Step, run_due
from desk.followups.plans import plan_open_renewals
from desk.oncall.paging import advance_page
from spine.codec import WireModel
from spine.notification import NotificationStatus
from spine.records import OutboxMessage
from spine.repo import Spine
from spine.store.url import open_store

log = logging.getLogger("clara.scheduler")

SCHEDULER_NAME = "clara-scheduler"
TICK_S = 0.5
STEPS_AT_ONCE = 32  # ladders advanced concurrently in one tick
LADDERS_READ = 200  # running ladders read per tick, the most overdue first
_NEVER = datetime.max.replace(tzinfo=UTC)
REMIND_EVERY_S = 30.0
RENEWALS_EVERY_S = 86400.0  # how often a tick plans the offers of renewals in the store (desk.followups.plans)  # how often a tick also looks for dispatches nobody accepted in time


class OutboxSender(Protocol):
    async def send_due(self, now: datetime | None = None) -> list[OutboxMessage]: ...

    async def send_queued(self, ids: list[str], now: datetime | None = None) -> list[OutboxMessage]: ...

    async def aclose(self) -> None: ...


class SenderFactory(Protocol):
    def open(self, spine: Spine) -> OutboxSender: ...


class SideWork(Protocol):
    """Periodic work the gateway hands the scheduler beside the ladders (the Buildium connector's
    webhooks left behind, write-backs and poll: gateway.pms.buildium.worker), one per namespace."""

    async def tick(self, now: datetime | None = None) -> None: ...


class SideWorkFactory(Protocol):
    def open(self, spine: Spine) -> SideWork | None: ...


SIDE_TICK_S = 1.0  # side work runs on its own loop: a long poll never delays a ladder's step


class SchedulerStats(WireModel):
    ticks: int = 0
    steps: int = 0  # ladder steps this process advanced (pages, exhaustions)
    rows_sent: int = 0  # outbox rows it ended (sent, failed, blocked)
    cpu_s: float = 0.0  # process CPU time spent in ticks
    failures: int = 0
    reminders: int = 0  # managers told of a dispatch nobody accepted in time (desk.dispatch.dispatch)
    followups: int = 0  # follow-up steps taken (sent, stopped or moved to the window: desk.followups)
    followup_cpu_s: float = 0.0  # process CPU time of those steps, beside the ladders'


class Ladders:
    """One tick's work, without Ray: what the actor runs and what tests drive with their own clock."""

    def __init__(self, spine: Spine, sender: OutboxSender | None,
                 accept_within_s: float = DEFAULT_ACCEPT_WITHIN_S) -> None:
        self.spine, self.sender = spine, sender
        self.accept_within_s = accept_within_s  # args.dispatch.accept_within_s
        self.stats = SchedulerStats()
        self.next_due: datetime | None = None  # the earliest step not yet due, as the last tick saw it
        self._reminded_at: datetime | None = None
        self._renewals_at: datetime | None = None

    async def tick(self, now: datetime | None = None) -> SchedulerStats:
        started = time.process_time()
        now = now or self.spine.clock()
        running = await self.spine.pages_due(_NEVER, limit=LADDERS_READ)  # sorted by next step due
        due = [(p, v) for p, v in running if p.next_due <= now]
        self.next_due = next((p.next_due for p, _ in running if p.next_due > now), None)
        queued: list[str] = []
        for at in range(0, len(due), STEPS_AT_ONCE):
            batch = due[at:at + STEPS_AT_ONCE]
            results = await asyncio.gather(*(advance_page(self.spine, p, v, now=now) for p, v in batch))
            self.stats.steps += sum(1 for r in results if r)
            queued += [n.outbox_id for r in results for n in r if n.outbox_id and n.status == NotificationStatus.QUEUED]
        if self.sender is not None and queued:  # the steps' texts and calls first, not after the sweep's listing
            self.stats.rows_sent += len(await self.sender.send_queued(queued, now))
        if self._reminded_at is None or (now - self._reminded_at).total_seconds() >= REMIND_EVERY_S:
            self._reminded_at = now  # before the send below, so the managers' messages leave this tick
            told = await due_dispatch_reminders(self.spine, accept_within_s=self.accept_within_s, now=now)
            self.stats.reminders += len(told)
        await self._followups(now)  # before the sweep below, so what they queued leaves this tick
        if self.sender is not None:
            self.stats.rows_sent += len(await self.sender.send_due(now))
        self.stats.ticks += 1
        self.stats.cpu_s += time.process_time() - started
        return self.stats


    async def _followups(self, now: datetime) -> None:
        """The due follow-ups (one Query per index shard), each taken once (desk.followups.engine). By the spine's
        clock, as the contact window that queue_outbound applies to them is (utcnow in production)."""
        started, now = time.process_time(), self.spine.clock()
        try:
            if self._renewals_at is None or (now - self._renewals_at).total_seconds() >= RENEWALS_EVERY_S:
                self._renewals_at = now
                await plan_open_renewals(self.spine, now=now)
            steps = await run_due(self.spine, now)
            self.stats.followups += sum(1 for s in steps if s != Step.LOST)
        except Exception as exc:  # noqa: BLE001 - a follow-up's failure never holds up a page or the outbox
            self.stats.failures += 1
            log.warning("follow-ups failed this tick: %s: %s", type(exc).__name__, exc)
        self.stats.followup_cpu_s += time.process_time() - started


def pause_s(tick_s: float, spent_s: float, next_due: datetime | None, now: datetime) -> float:
    """How long the scheduler sleeps after a tick that took `spent_s`: until the next tick, or
    until the next ladder step (`next_due`) when it falls due before that."""
    pause = tick_s - spent_s
    if next_due is not None:
        pause = min(pause, (next_due - now).total_seconds())
    return max(0.0, pause)


class SchedulerService:
    def __init__(self, config_bytes: bytes, sender_factory: SenderFactory | None = None,
                 tick_s: float = TICK_S, accept_within_s: float = DEFAULT_ACCEPT_WITHIN_S,
                 side_work: SideWorkFactory | None = None) -> None:
        config = RuntimeConfig.from_bytes(config_bytes)
        spine = Spine(open_store(config.store_url, timeout_s=config.store_timeout_s))
        self.ladders = Ladders(spine, sender_factory.open(spine) if sender_factory else None, accept_within_s)
        self.tick_s = tick_s
        # An async actor's constructor runs on its event loop: a restarted process ticks again at once.
        self._loop: asyncio.Task[None] = asyncio.get_running_loop().create_task(self._run())
        side = side_work.open(spine) if side_work else None
        self._side = asyncio.get_running_loop().create_task(self._run_side(side)) if side else None

    async def _run_side(self, work: SideWork) -> None:
        while True:
            try:
                await work.tick()
            except Exception as exc:  # noqa: BLE001 - Buildium or the store down: the next tick retries
                log.warning("scheduler side work failed: %s: %s", type(exc).__name__, exc)
            await asyncio.sleep(SIDE_TICK_S)

    async def _run(self) -> None:
        while True:
            began = time.monotonic()
            try:
                await self.ladders.tick()
            except Exception as exc:  # noqa: BLE001 - a failed tick (the store down) is retried next tick
                self.ladders.stats.failures += 1
                log.warning("scheduler tick failed: %s: %s", type(exc).__name__, exc)
            await asyncio.sleep(pause_s(self.tick_s, time.monotonic() - began, self.ladders.next_due,
                                         self.ladders.spine.clock()))

    async def ping(self) -> str:
        return SCHEDULER_NAME

    async def stats(self) -> bytes:
        return self.ladders.stats.to_bytes()


PagingScheduler = ray.remote(SchedulerService)


def start_scheduler(config: RuntimeConfig, sender_factory: SenderFactory | None,
                    accept_within_s: float = DEFAULT_ACCEPT_WITHIN_S, side_work: SideWorkFactory | None = None) -> Any:
    """The namespace's scheduler, created by the first caller (get_if_exists) and restarted by Ray
    whenever its process dies (the same constructor arguments, so the same sender)."""
    return PagingScheduler.options(
        name=SCHEDULER_NAME, namespace=config.namespace, get_if_exists=True, num_cpus=0, max_restarts=-1,
        max_task_retries=-1, lifetime="detached" if config.detached else None,
    ).remote(config.to_bytes(), sender_factory, accept_within_s=accept_within_s, side_work=side_work)
