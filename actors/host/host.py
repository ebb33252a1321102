"""PersonActorHost: one Ray actor (one process) holding many PersonActors.

`PersonHost` is the plain asyncio part (the table of PersonActors, the one idle sweeper, the
bytes interface, retiring) and tests run it without Ray. `PersonActorHost` is the same class as
an async Ray actor that builds its turn dependencies from RuntimeConfig in its own process and
takes live settings from the HostReconciler (`reconfigure`).
"""
from __future__ import annotations

import asyncio
import importlib
import logging
import os
from collections.abc import Awaitable
from typing import Any

import ray
from pydantic import ValidationError

import actors.metrics as metrics
from actors.config import RuntimeConfig
from actors.heap import heap_blocks, settle_heap
from actors.host.ownership import Ownerships
from actors.host.person_actor import ActorInfo, Moved, PersonActor, PersonRuntime
from actors.host.person_runtime import KeyedActor, default_turn
from actors.protocol.host import Answered, CallAnswered, HostFailed, HostMoved, HostReply, TurnAnswered
from actors.protocol.keys import placement_key
from actors.protocol.session import SessionOp, SessionReply, SessionRequest
from actors.protocol.turn import TurnDeps, TurnResult
from spine.codec import pack
from spine.envelope import MessageEnvelope
from spine.repo import Spine
from spine.store.counting import counting
from spine.store.url import open_store

log = logging.getLogger("clara.host")


def host_name(index: int) -> str:
    return f"clara-host-{index}"


def owner_id(namespace: str, name: str, incarnation: str = "") -> str:
    """Lease owner id: `namespace/name`, distinct across pools, plus the incarnation the
    HostReconciler gave this process (`#...`): stable across Ray's restarts of it (same creation
    arguments), new when the reconciler replaces a lost host, so the dead one's id can be
    revoked for good while its successor runs under the same name."""
    return f"{namespace}/{name}#{incarnation}" if incarnation else f"{namespace}/{name}"


def host_of(owner: str) -> tuple[str, str]:
    """(namespace, actor name) of a lease owner id."""
    namespace, _, name = owner.partition("/")
    return namespace, name.partition("#")[0]


class PersonHost:
    def __init__(self, runtime: PersonRuntime, sweep_interval_s: float = 5.0) -> None:
        self.runtime = runtime
        runtime.on_cold = self._forget
        self.sweep_interval_s = sweep_interval_s
        self.persons: dict[str, PersonActor] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.retiring = False  # set once by retire(): this host takes no more messages

    @property
    def host_id(self) -> str:
        return self.runtime.host_id

    def actor_for(self, key: str) -> PersonActor:
        actor = self.persons.get(key)
        if actor is None:
            actor = self.persons[key] = PersonActor(key, self.runtime)
        return actor

    def _forget(self, actor: KeyedActor) -> None:
        if self.persons.get(actor.key) is actor:
            del self.persons[actor.key]

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        """No await before the enqueue: arrival order at this line is mailbox order. A retiring
        host refuses with Moved to no owner: the pool asks the layout again and sends the
        message to the person's new host, which takes the lease once this host released it."""
        key = placement_key(envelope)
        if self.retiring:
            raise Moved(key)
        self._ensure_sweeper()
        return await self.actor_for(key).submit(envelope)

    async def handle(self, data: bytes) -> bytes:
        """The Ray entry point: MessageEnvelope bytes in, HostReply bytes out."""
        try:
            envelope = MessageEnvelope.from_bytes(data)
        except (ValidationError, ValueError) as exc:
            return HostFailed(error=f"bad envelope: {exc}"[:500]).to_bytes()
        return await self._answer(envelope.message_id, self._turn(envelope))

    async def session(self, data: bytes) -> bytes:
        """A phone call's op (actors.host.person_session) for the caller's PersonActor: bytes in and out."""
        try:
            op = SessionRequest.from_bytes(data).op
        except (ValidationError, ValueError) as exc:
            return HostFailed(error=f"bad session op: {exc}"[:500]).to_bytes()
        return await self._answer(op.interaction_id, self._call(op))

    async def call(self, op: SessionOp) -> SessionReply:
        """As `submit`, for a phone call's op: the caller's PersonActor (or their number's address
        actor) runs it in mailbox order."""
        key = op.key
        if self.retiring:
            raise Moved(key)
        self._ensure_sweeper()
        return await self.actor_for(key).call(op)

    async def _turn(self, envelope: MessageEnvelope) -> TurnAnswered:
        return TurnAnswered(result=await self.submit(envelope))

    async def _call(self, op: SessionOp) -> CallAnswered:
        return CallAnswered(session=await self.call(op))

    async def _answer(self, what: str, work: Awaitable[Answered]) -> bytes:
        reply: HostReply
        try:
            reply = await work
        except Moved as moved:
            reply = HostMoved(owner=moved.owner, rekey=moved.rekey)
        except Exception as exc:  # a failed turn is an answer, not a dead host
            log.exception("turn for %s failed on %s", what, self.host_id)
            reply = HostFailed(error=f"{type(exc).__name__}: {exc}"[:500])
        return reply.to_bytes()

    def actor_infos(self) -> list[ActorInfo]:
        return [a.info() for a in self.persons.values() if a.active]

    async def list_actors(self) -> bytes:
        return pack(self.actor_infos())

    async def ping(self) -> str:
        if not self.retiring:
            self._ensure_sweeper()
        return self.host_id

    async def pid(self) -> int:
        """The host's process id: operators and tests see a restart as a new pid."""
        return os.getpid()

    # -- idle deactivation and lease upkeep: one sweeper per host, no timer per actor -------
    def _ensure_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_interval_s)
            try:
                await self.sweep_once()
            except Exception:  # the sweeper must outlive one bad pass
                log.exception("sweep failed on %s", self.host_id)

    async def sweep_once(self) -> None:
        now = self.runtime.clock()
        renewals = []
        for actor in list(self.persons.values()):
            if actor.busy:
                renewals.append(actor.renew_if_due())
            elif not actor.active:
                self._forget(actor)
            elif actor.idle_for(now) >= self.runtime.idle_deactivate_s:
                actor.post_idle_check()
        if renewals:
            await asyncio.gather(*renewals, return_exceptions=True)
        metrics.gauge("clara_active_person_actors", sum(a.active for a in self.persons.values()), host=self.host_id)

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()

    async def drain(self) -> int:
        """Deactivate every PersonActor (refresh, release leases); for a graceful shutdown or
        before a pool shrinks, so new owners need not wait for leases to expire. Mail queued
        before the deactivation still runs first: it was accepted here."""
        actors = [a for a in self.persons.values() if a.active]
        await asyncio.gather(*(a.deactivate() for a in actors), return_exceptions=True)
        return len(actors)

    async def retire(self) -> int:
        """Before this host stops for good (the pool shrank, or its process is being replaced):
        take no more messages, let what was accepted here run, then deactivate every
        PersonActor. Returns how many it deactivated."""
        self.retiring = True
        drained = 0
        while pending := [a for a in self.persons.values() if a.active or a.busy]:
            drained += sum(a.active for a in pending)
            await asyncio.gather(*(a.deactivate() for a in pending), return_exceptions=True)
        self.close()
        return drained


def build_runtime(config: RuntimeConfig, host_id: str, dispatcher: Any, lease_owner: str | None = None) -> PersonRuntime:
    """Turn dependencies for one host process: its own store connection and model client, and
    the shared DispatcherActor for tools."""
    from actors.dispatcher.dispatcher_actor import RayToolRunner, named_dispatcher
    from actors.model.confirm import model_confirmer
    from actors.model.factory import make_model_from

    spine = Spine(counting(open_store(config.store_url, timeout_s=config.store_timeout_s)))
    model = make_model_from(config, timeout_s=config.model_call_s)
    tools = RayToolRunner(dispatcher, resolve=named_dispatcher(config.namespace))
    deps = TurnDeps(spine=spine, model=model, tools=tools,
                    confirmer=model_confirmer(model), budget=config.budget())
    runtime = PersonRuntime(deps=deps, ownerships=Ownerships(spine.store, lease_owner or host_id, config.lease_ttl_s),
                            host_id=host_id)
    apply_live_settings(runtime, config)
    return runtime


def apply_live_settings(runtime: PersonRuntime, config: RuntimeConfig, revoked: frozenset[str] = frozenset()) -> None:
    """The settings a running host takes in place (everything outside HOST_PROCESS_FIELDS):
    lifecycle, lease timing, transcript caps, the turn and its budget. The next turn and the
    next sweep use them; a warm PersonActor keeps its transcript."""
    runtime.idle_deactivate_s = config.idle_deactivate_s
    # A lease holds for the idle window plus the margin, renewed below half the margin.
    runtime.ownerships.ttl_s = config.idle_deactivate_s + config.lease_ttl_s
    runtime.ownerships.revoked = revoked
    runtime.renew_below_s = config.idle_deactivate_s + config.lease_ttl_s / 2
    runtime.transcript_turns, runtime.transcript_chars = config.transcript_turns, config.transcript_chars
    runtime.deps.budget = config.budget()
    runtime.deps.prefetch = config.prefetch
    runtime.turn = default_turn
    if config.turn_function:
        module, _, name = config.turn_function.partition(":")
        runtime.turn = getattr(importlib.import_module(module), name)


class _RayPersonHost(PersonHost):
    def __init__(self, name: str, config_bytes: bytes, dispatcher_name: str, revoked: list[str] | None = None,
                 incarnation: str = "") -> None:
        self.config = RuntimeConfig.from_bytes(config_bytes)
        self.dispatcher_name = dispatcher_name
        metrics.count_events()
        dispatcher = ray.get_actor(dispatcher_name, namespace=self.config.namespace)
        namespace = self.config.namespace
        super().__init__(build_runtime(self.config, owner_id(namespace, name), dispatcher,
                                       lease_owner=owner_id(namespace, name, incarnation)),
                         sweep_interval_s=self.config.sweep_interval_s)
        self.runtime.ownerships.revoked = frozenset(revoked or ())
        settle_heap()  # a process of its own: its start-up heap out of the collector's way

    async def reconfigure(self, config_bytes: bytes, revoked: list[str]) -> None:
        """Live settings from the HostReconciler. It replaces the process instead when a
        HOST_PROCESS_FIELDS value changed; getting one here is its bug, refused loudly."""
        from actors.dispatcher.dispatcher_actor import RayToolRunner, named_dispatcher

        config = RuntimeConfig.from_bytes(config_bytes)
        if config.host_process() != self.config.host_process():
            raise ValueError("host process settings changed: this host must be replaced, not reconfigured")
        apply_live_settings(self.runtime, config, frozenset(revoked))
        self.sweep_interval_s = config.sweep_interval_s
        # The DispatcherActor may have been replaced (its own process settings changed).
        self.runtime.deps.tools = RayToolRunner(resolve=named_dispatcher(config.namespace, self.dispatcher_name))
        self.config = config

    async def config_bytes(self) -> bytes:
        return self.config.to_bytes()

    async def heap_blocks(self) -> int:
        """This process's Python heap in allocator blocks (actors.heap.heap_blocks)."""
        return heap_blocks()

    async def lease_owner(self) -> str:
        return self.runtime.ownerships.owner

    async def node_id(self) -> str:
        """The Ray node this process runs on: the HostReconciler fails its people over at once
        when Ray declares that node dead."""
        return ray.get_runtime_context().get_node_id()


PersonActorHost = ray.remote(_RayPersonHost)
