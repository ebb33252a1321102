"""Plain-asyncio helpers for the PersonActor runtime: a recording turn function, a recording
refresh, a settable clock, hosts on the shared seeded store (with a recording turn, or real turns
on the offline model), and in-process hosts behind the shape of a Ray actor handle. No Ray."""
from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import Any

from actors.client.pool import HostPool
from actors.dispatcher.dispatcher import Dispatcher
from actors.host.host import PersonHost
from actors.host.ownership import Ownerships
from actors.host.person_actor import PersonRuntime
from actors.model.offline import OfflineModel
from actors.protocol.keys import host_index
from actors.protocol.turn import TurnDeps, TurnResult
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.records import AgentTrace, InboundMessage, TranscriptEntry

_ids = itertools.count(1)

PHONES = {"p_marcus": "+12065551001", "p_jordan": "+12065551002", "p_ellen": "+12065551003",
          "p_mike": "+13035551500", "p_carlos": "+13035552020", "p_priya": "+12065550150",
          "p_sam": "+12065550151", "p_lena": "+12065550152", "p_ruth": "+12065551099"}


def envelope(person_id: str | None, body: str, *, from_address: str | None = None,
             property_id: str = "pf_yale") -> MessageEnvelope:
    n = next(_ids)
    return MessageEnvelope(message_id=f"SM{n:06d}", interaction_id=f"ix_{n:06d}", channel=Channel.SMS,
                           from_address=from_address or PHONES.get(person_id or "", "+14155559876"),
                           to_address="+12065550100", body=body, property_id=property_id,
                           participant_id=person_id)


async def accept(spine, env: MessageEnvelope) -> None:
    """What the gateway does before submitting: the inbound is durably accepted."""
    await spine.accept_inbound(InboundMessage(id=env.message_id, channel=env.channel, from_address=env.from_address,
                                              to_address=env.to_address, body=env.body))


class Clock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class RecordingTurn:
    """Stands in for run_interaction: records start order, overlap per person, the history it
    was given, and writes a trace as the real turn does."""

    spine: Any
    delay: float = 0.0
    fail_on: str | None = None
    gate: asyncio.Event | None = None
    started: list[str] = field(default_factory=list)
    histories: dict[str, list[dict]] = field(default_factory=dict)
    running: dict[str, int] = field(default_factory=dict)
    max_running_per_person: int = 0
    max_running_total: int = 0

    openings: dict[str, Any] = field(default_factory=dict)

    async def __call__(self, deps: TurnDeps, env: MessageEnvelope, history: list[dict], opening=None) -> TurnResult:
        who = env.participant_id or env.from_address
        self.started.append(env.message_id)
        self.histories[env.message_id] = history
        self.openings[env.message_id] = opening
        self.running[who] = self.running.get(who, 0) + 1
        self.max_running_per_person = max(self.max_running_per_person, self.running[who])
        self.max_running_total = max(self.max_running_total, sum(self.running.values()))
        try:
            if self.gate is not None:
                await self.gate.wait()
            await asyncio.sleep(self.delay)
            if self.fail_on and self.fail_on in env.body:
                raise RuntimeError("model exploded")
        finally:
            self.running[who] -= 1
        trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=env.participant_id,
                           inbound=env.body, reply=f"re: {env.body}")
        await self.spine.put_trace(trace)
        return TurnResult(interaction_id=env.interaction_id, person_id=env.participant_id,
                          reply=f"re: {env.body}", trace=trace)


@dataclass
class RecordingRefresh:
    calls: list[tuple[str, str, list[dict]]] = field(default_factory=list)

    async def __call__(self, spine, model, person_id: str, interaction_id: str, transcript: list[TranscriptEntry]) -> bool:
        self.calls.append((person_id, interaction_id, transcript))
        return True


def make_host(spine, host_id: str, turn, clock: Clock, *, refresh: RecordingRefresh | None = None,
              idle_s: float = 300.0, ttl_s: float = 30.0, transcript_turns: int = 10) -> PersonHost:
    tools = Dispatcher(spine, clock=clock)
    runtime = PersonRuntime(deps=TurnDeps(spine=spine, model=None, tools=tools),  # type: ignore[arg-type]
                            ownerships=Ownerships(spine.store, host_id, idle_s + ttl_s, clock), host_id=host_id,
                            idle_deactivate_s=idle_s, renew_below_s=idle_s + ttl_s / 2, transcript_turns=transcript_turns, turn=turn,
                            refresh=refresh or RecordingRefresh(), clock=clock)
    host = PersonHost(runtime, sweep_interval_s=3600)
    _made.append(host)
    return host


_made: list[PersonHost] = []


def close_hosts() -> None:
    while _made:
        _made.pop().close()


async def settle(*hosts: PersonHost) -> None:
    """Let every mailbox run dry."""
    for _ in range(10_000):
        if not any(a.busy for h in hosts for a in h.persons.values()):
            return
        await asyncio.sleep(0.001)
    raise AssertionError("mailboxes never drained")


def real_host(spine, clock: Clock, host_id: str = "h0", refresh=None) -> PersonHost:
    deps = TurnDeps(spine=spine, model=OfflineModel(), tools=Dispatcher(spine, clock=clock))
    runtime = PersonRuntime(deps=deps, ownerships=Ownerships(spine.store, host_id, 330.0, clock), host_id=host_id,
                            renew_below_s=315.0, clock=clock)
    if refresh is not None:
        runtime.refresh = refresh
    host = PersonHost(runtime, sweep_interval_s=3600)
    _made.append(host)  # close_hosts() stops its sweeper
    return host


class _Remote:
    def __init__(self, method) -> None:
        self.method = method

    def remote(self, *data: bytes):
        return self.method(*data)


class InProcess:
    """A PersonHost behind the `.handle.remote(bytes)` shape of a Ray actor handle."""

    def __init__(self, host) -> None:
        self.host = host
        self.handle, self.session = _Remote(host.handle), _Remote(host.session)
        self.list_actors = _Remote(host.list_actors)


def actor(pool: HostPool, key: str):
    return pool.hosts[host_index(key, len(pool.hosts))].host.persons.get(key)
