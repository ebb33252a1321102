"""HostReconciler: the one actor that makes the running hosts match the runtime config.

Every GatewayIngress replica hands it the config it was given (at start, and on every
`serve deploy` that changes the `user_config`); it works serially, so concurrent replicas
asking for the same config cost one reconciliation and a no-op each. It keeps the *layout*: the
generation and the names of the hosts that take new people. Pools read it and place people
on it; a host that left the layout answers 'moved' and the pool asks again.

What a change does (RuntimeConfig groups the fields):
  * live settings: pushed to every running host (`reconfigure`), no restart;
  * more hosts: the new ones are created and join the layout at once;
  * fewer hosts: the removed ones leave the layout, retire (take no more messages, finish
    what they accepted, deactivate their PersonActors: refresh personContext, release the
    lease), then are killed, so Ray and /admin/actors list only the configured hosts;
  * host-process settings (CPUs, concurrency, store, model): each host is retired and
    recreated under its own name, one at a time;
  * dispatcher-process settings: the DispatcherActor is recreated and the hosts re-resolve it.

It also watches the hosts: one that does not answer a ping within `host_dead_after_s` (its
process gone for good), or whose node Ray has declared dead, is killed and leaves the layout at once, and its lease
owner id (one per process incarnation) is revoked: every other host treats its leases as free,
so its people are served by the others on their next message instead of after their leases
lapse. A new process is started under the same name in the background and rejoins the layout
when it answers. A removed host that died before it drained is revoked the same way.
"""
from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any, cast

import ray
from pydantic import Field
from ray.exceptions import RayActorError

from actors.config import RuntimeConfig
from actors.control.host_health import dead_nodes, lost_because, ray_actor_state
from actors.dispatcher.dispatcher_actor import DISPATCHER_NAME, DispatcherActor
from actors.heap import heap_blocks
from actors.host.host import PersonActorHost, host_name
from actors.protocol.handles import DispatcherHandle, PersonHostHandle, kill_actor
from spine.codec import WireModel

log = logging.getLogger("clara.reconciler")

RECONCILER_NAME = "clara-reconciler"
HOST_PREFIX = host_name(0)[:-1]
RETIRE_TIMEOUT_S = 60.0  # a retiring host finishes its accepted turns and refreshes within this


class Layout(WireModel):
    """The hosts that take new people, in placement order; generation 0 is 'not configured'
    (a reconciler that restarted and has not been given a config yet)."""

    generation: int = 0
    hosts: list[str] = Field(default_factory=list)



def actor_options(config: RuntimeConfig, name: str) -> dict[str, Any]:
    return dict(name=name, namespace=config.namespace, max_restarts=-1, max_task_retries=config.max_task_retries,
                lifetime="detached" if config.detached else None)


class ReconcilerService:
    def __init__(self) -> None:
        self.config: RuntimeConfig | None = None
        self.generation = 0
        self.hosts: dict[str, PersonHostHandle] = {}  # name -> handle, the layout's hosts
        self.owners: dict[str, str] = {}  # name -> lease owner id of its current process
        self.nodes: dict[str, str] = {}  # name -> the Ray node its current process runs on
        self.recreating: dict[str, asyncio.Task[None]] = {}  # lost hosts being started again
        self.dispatcher: Any = None
        self.revoked: set[str] = set()
        self.retiring: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._watch: asyncio.Task[None] | None = None

    async def apply(self, config_bytes: bytes) -> bytes:
        config = RuntimeConfig.from_bytes(config_bytes)
        async with self._lock:
            if config != self.config:
                await self._reconcile(config)
            if self._watch is None:
                self._watch = asyncio.get_running_loop().create_task(self._watch_forever())
            return self._layout().to_bytes()

    async def layout(self) -> bytes:
        return self._layout().to_bytes()

    async def ping(self) -> str:
        return RECONCILER_NAME

    async def heap_blocks(self) -> int:
        """This process's Python heap in allocator blocks (actors.heap.heap_blocks)."""
        return heap_blocks()

    async def retired(self) -> int:
        """Hosts still retiring (for tests and benches that wait for a resize to settle)."""
        return len(self.retiring)

    def _layout(self) -> Layout:
        return Layout(generation=self.generation, hosts=list(self.hosts))

    # -- reconciliation ---------------------------------------------------------------------
    async def _reconcile(self, config: RuntimeConfig) -> None:
        if self.config is not None and config.namespace != self.config.namespace:
            raise ValueError("runtime.namespace cannot change on a running deployment")
        old, self.config = self.config, config
        if old is None:
            await self._adopt(config)
        await self._ensure_dispatcher(config, old)
        wanted = [host_name(i) for i in range(config.hosts)]
        for name in [n for n in self.hosts if n not in wanted]:
            self._retire(name, self.hosts.pop(name))
        created = [n for n in wanted if n not in self.hosts and n not in self.recreating]
        # a new host joins the layout only once it answers: until then it would hold messages
        # for as long as its process takes to start
        fresh = {name: self._create(config, name) for name in created}
        await asyncio.gather(*(self._learn_owner(name, handle) for name, handle in fresh.items()))
        self.hosts = {n: self.hosts.get(n) or fresh[n] for n in wanted if n in self.hosts or n in fresh}
        self.generation += 1
        for name in [n for n in wanted if n not in created]:
            await self._update(config, name)
        log.info("runtime reconciled: generation %d, hosts %s", self.generation, wanted)

    async def _adopt(self, config: RuntimeConfig) -> None:
        """A fresh reconciler (first deploy, or restarted) takes over the hosts already running
        in the namespace, so a redeploy neither duplicates nor orphans them."""
        names = [a["name"] for a in ray.util.list_named_actors(all_namespaces=True)
                 if a["namespace"] == config.namespace and a["name"].startswith(HOST_PREFIX)
                 and a["name"][len(HOST_PREFIX):].isdigit()]
        for name in sorted(names, key=lambda n: int(n[len(HOST_PREFIX):])):
            try:
                self.hosts[name] = ray.get_actor(name, namespace=config.namespace)
                await self._learn_owner(name)
            except (ValueError, RayActorError):
                self.hosts.pop(name, None)  # died between the listing and the lookup

    async def _learn_owner(self, name: str, handle: Any = None) -> None:
        """The host answers (it is up) with the lease owner id of its process and its node."""
        handle = self.hosts[name] if handle is None else handle
        self.owners[name], self.nodes[name] = await asyncio.gather(handle.lease_owner.remote(), handle.node_id.remote())

    async def _ensure_dispatcher(self, config: RuntimeConfig, old: RuntimeConfig | None) -> None:
        options = dict(actor_options(config, DISPATCHER_NAME), num_cpus=config.dispatcher_num_cpus,
                       max_concurrency=config.dispatcher_max_concurrency)
        if self.dispatcher is None:  # created here, or adopted from an earlier deploy
            self.dispatcher = cast(DispatcherHandle,
                                   DispatcherActor.options(**options, get_if_exists=True).remote(config.to_bytes()))
            old = RuntimeConfig.from_bytes(await self.dispatcher.config_bytes.remote())
        assert old is not None  # a dispatcher this service holds was made under its last config
        if old.dispatcher_process() != config.dispatcher_process():
            kill_actor(self.dispatcher)
            self.dispatcher = await _create_when_name_free(lambda: DispatcherActor.options(**options).remote(config.to_bytes()))

    def _create(self, config: RuntimeConfig, name: str, *, get_if_exists: bool = True) -> Any:
        return PersonActorHost.options(**actor_options(config, name), num_cpus=config.host_num_cpus,
                                       max_concurrency=config.host_max_concurrency, get_if_exists=get_if_exists) \
            .remote(name, config.to_bytes(), DISPATCHER_NAME, sorted(self.revoked), uuid.uuid4().hex[:8])

    async def _update(self, config: RuntimeConfig, name: str) -> None:
        """Push live settings, or replace the process when it was built with other ones."""
        handle = self.hosts[name]
        try:
            current = RuntimeConfig.from_bytes(await handle.config_bytes.remote())
            if current.host_process() == config.host_process():
                await handle.reconfigure.remote(config.to_bytes(), sorted(self.revoked))
                return
            await asyncio.wait_for(handle.retire.remote(), RETIRE_TIMEOUT_S)
        except (TimeoutError, RayActorError) as exc:
            log.warning("host %s did not take the new settings (%s); replacing it", name, type(exc).__name__)
        await self._replace(config, name)

    async def _replace(self, config: RuntimeConfig, name: str) -> None:
        """A new process for a host that retired (or could not): its old owner id is revoked,
        which costs nothing when it drained and frees its people when it could not."""
        kill_actor(self.hosts[name])
        self._revoke(name)
        self.hosts[name] = await _create_when_name_free(lambda: self._create(config, name, get_if_exists=False))
        await self._learn_owner(name)
        self.generation += 1

    def _revoke(self, name: str) -> None:
        if name in self.owners:
            self.revoked.add(self.owners.pop(name))

    def _retire(self, name: str, handle: Any) -> None:
        task = asyncio.get_running_loop().create_task(self._retire_then_kill(name, handle))
        self.retiring.add(task)
        task.add_done_callback(self.retiring.discard)

    async def _retire_then_kill(self, name: str, handle: Any) -> None:
        try:
            drained = await asyncio.wait_for(handle.retire.remote(), RETIRE_TIMEOUT_S)
            log.info("host %s retired after deactivating %d PersonActors", name, drained)
        except (TimeoutError, RayActorError) as exc:
            # it could not drain: its leases would block its people until they lapse
            log.warning("host %s died or hung while retiring (%s); revoking its leases", name, type(exc).__name__)
            self._revoke(name)
            ray.kill(handle, no_restart=True)
            await self._push_revoked()
            return
        ray.kill(handle, no_restart=True)

    async def _push_revoked(self) -> None:
        config = self.config
        assert config is not None  # hosts exist only after apply() set the config
        await asyncio.gather(*(h.reconfigure.remote(config.to_bytes(), sorted(self.revoked)) for h in self.hosts.values()),
                             return_exceptions=True)

    # -- health -----------------------------------------------------------------------------
    async def _watch_forever(self) -> None:
        last_ok: dict[str, float] = {}
        while True:
            config = self.config
            assert config is not None  # the watch starts in apply(), after the config is set
            await asyncio.sleep(config.host_health_check_s)
            try:
                async with self._lock:
                    await self._check(config, last_ok)
            except Exception:  # the watcher must outlive one bad pass
                log.exception("host health check failed")

    async def _check(self, config: RuntimeConfig, last_ok: dict[str, float]) -> None:
        names = list(self.hosts)
        pings = await asyncio.gather(*(asyncio.wait_for(self.hosts[n].ping.remote(), config.host_health_check_s)
                                       for n in names), return_exceptions=True)
        now = time.monotonic()
        failed = [name for name, result in zip(names, pings, strict=True) if isinstance(result, BaseException)]
        for name in set(names) - set(failed):
            last_ok[name] = now
        if not failed:
            return
        # The GCS's view, asked without blocking the event loop: the pings of the next pass must
        # not wait behind it.
        timeout_s = config.host_health_check_s
        lost_nodes, answers = await asyncio.gather(
            dead_nodes(timeout_s), asyncio.gather(*(ray_actor_state(self.hosts[n], timeout_s) for n in failed)))
        states = dict(zip(failed, answers, strict=True))
        for name, result in zip(names, pings, strict=True):
            if not isinstance(result, BaseException):  # answered: not among the failed
                continue
            silent = now - last_ok.setdefault(name, now)
            why = lost_because(config, result, states[name], self.nodes.get(name) in lost_nodes, silent)
            if why is None:
                log.info("host %s missed a ping (%s, Ray state %s, silent %.1fs)", name, type(result).__name__,
                         states[name], silent)
                continue
            log.warning("host %s is lost (%s; Ray state %s, silent %.1fs); its people move to the others",
                        name, why, states[name], silent)
            await self._lose(config, name)
            last_ok.pop(name, None)

    async def _lose(self, config: RuntimeConfig, name: str) -> None:
        """Fence the lost process (killed, its owner id revoked on every other host), take it
        out of the layout, and start its successor in the background."""
        kill_actor(self.hosts.pop(name))
        self._revoke(name)
        await self._push_revoked()
        self.generation += 1
        task = asyncio.get_running_loop().create_task(self._recreate(config, name))
        self.recreating[name] = task
        task.add_done_callback(lambda _: self.recreating.pop(name, None))

    async def _recreate(self, config: RuntimeConfig, name: str) -> None:
        try:
            handle = await _create_when_name_free(lambda: self._create(config, name, get_if_exists=False), 60.0)
            owner, node = await asyncio.gather(handle.lease_owner.remote(), handle.node_id.remote())
        except Exception:  # the next reconcile or health pass tries again
            log.exception("could not start host %s again", name)
            return
        async with self._lock:
            if self.config is None or name not in [host_name(i) for i in range(self.config.hosts)]:
                ray.kill(handle, no_restart=True)  # the pool shrank meanwhile
                return
            self.hosts[name], self.owners[name], self.nodes[name] = handle, owner, node
            self.hosts = dict(sorted(self.hosts.items(), key=lambda item: int(item[0][len(HOST_PREFIX):])))
            self.generation += 1
            log.info("host %s is back in the layout", name)


async def _create_when_name_free(create: Any, timeout_s: float = 10.0) -> Any:
    """Create a named actor whose previous holder was just killed: the name frees once Ray has
    recorded that death, which takes a moment."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            handle = create()
            await handle.ping.remote()
            return handle
        except (ValueError, RayActorError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


HostReconciler = ray.remote(ReconcilerService)
