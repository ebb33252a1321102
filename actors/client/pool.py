"""HostPool: the gateway's handle on the actor runtime.

`await HostPool.start(config)` once per Serve replica gets (or creates) the namespace's
HostReconciler, hands it the config and takes the layout it answers: the hosts that take new
people. `await pool.apply(config)` does the same on a live reconfigure (`serve deploy`).
`await pool.submit(envelope)` places the person on a layout host by a stable hash of its
placement key; if the store lease says another live host owns that person (the pool was
resized, or two pools share a store), the host answers 'moved' and the pool resends there. A
host that left the layout (retiring, replaced, dead) makes the pool read the layout again and
resend, with a short backoff, until the message is answered or the submit budget runs out:
an accepted message is never dropped because its host went away.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any, cast

import ray
from ray.exceptions import RayActorError

from actors.config import RuntimeConfig
from actors.control.reconciler import RECONCILER_NAME, HostReconciler, Layout
from actors.dispatcher.dispatcher_actor import DISPATCHER_NAME
from actors.errors import ActorError
from actors.host.host import host_name, host_of, owner_id
from actors.host.person_actor import ActorInfo
from actors.protocol.handles import DispatcherHandle, PersonHostHandle, ReconcilerHandle, kill_actor
from actors.protocol.host import Answered, CallAnswered, HostFailed, HostMoved, TurnAnswered, read_host_reply
from actors.protocol.keys import host_index, person_of, placement_key
from actors.protocol.session import SessionOp, SessionReply, SessionRequest
from actors.protocol.turn import TurnResult
from spine.codec import unpack_models
from spine.envelope import MessageEnvelope
from spine.repo import Spine
from spine.store.url import open_store

log = logging.getLogger("clara.pool")

LAYOUT_REFRESH_S = 1.0


class TurnFailed(ActorError):
    """No reply for this message; its failure is recorded in the inbound log when possible.
    The gateway answers the person with its fallback text."""


class HostPool:
    def __init__(self, config: RuntimeConfig, hosts: list[PersonHostHandle], dispatcher: DispatcherHandle | None,
                 spine: Spine, *, reconciler: ReconcilerHandle | None = None) -> None:
        """With a reconciler, the hosts are whatever its layout says (`start`); without one, the
        fixed `hosts` (in-process tests hand PersonHosts behind a `.handle.remote` shape)."""
        self.config, self.reconciler, self.spine, self._dispatcher = config, reconciler, spine, dispatcher
        self.layout = Layout(generation=1, hosts=[host_name(i) for i in range(len(hosts))])
        self.hosts: list[PersonHostHandle] = list(hosts)
        self._owners = {owner_id(config.namespace, n): h for n, h in zip(self.layout.hosts, self.hosts, strict=True)}
        self._tails: dict[str, asyncio.Future[None]] = {}  # per person: the last message handed to a host
        self._refreshed_at = 0.0
        self._refreshing: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, config: RuntimeConfig, spine: Spine | None = None) -> HostPool:
        reconciler = cast(ReconcilerHandle, HostReconciler.options(
            name=RECONCILER_NAME, namespace=config.namespace, get_if_exists=True, num_cpus=0, max_restarts=-1,
            max_task_retries=-1, lifetime="detached" if config.detached else None).remote())
        layout = Layout.from_bytes(await reconciler.apply.remote(config.to_bytes()))
        spine = spine or Spine(open_store(config.store_url, timeout_s=config.store_timeout_s))
        pool = cls(config, [], None, spine, reconciler=reconciler)
        pool._take(layout)
        return pool

    async def apply(self, config: RuntimeConfig) -> None:
        """A live reconfigure: the reconciler makes the hosts match `config` (see
        actors.control.reconciler) and this pool places on the resulting layout."""
        if self.reconciler is None:
            raise RuntimeError("this pool has fixed hosts and no reconciler to reconfigure them")
        self._take(Layout.from_bytes(await self.reconciler.apply.remote(config.to_bytes())))
        self.config = config

    @property
    def dispatcher(self) -> DispatcherHandle:
        """The DispatcherActor now (the reconciler may have replaced it since the pool started)."""
        return self._dispatcher or ray.get_actor(DISPATCHER_NAME, namespace=self.config.namespace)

    async def host_names(self) -> list[str]:
        """The hosts taking people now, as the reconciler lists them."""
        await self.refresh()
        return list(self.layout.hosts)

    def _take(self, layout: Layout) -> None:
        if layout == self.layout and self.hosts:
            return
        hosts: list[PersonHostHandle] = []
        for name in layout.hosts:
            try:
                hosts.append(cast(PersonHostHandle, ray.get_actor(name, namespace=self.config.namespace)))
            except ValueError:  # being replaced right now; the next refresh will see it
                return
        self.layout, self.hosts = layout, hosts
        self._owners = {owner_id(self.config.namespace, n): h for n, h in zip(layout.hosts, hosts, strict=True)}
        self._refreshed_at = time.monotonic()

    async def refresh(self) -> None:
        """Read the layout again; a restarted reconciler that lost its config gets ours."""
        if self.reconciler is None:
            return
        layout = Layout.from_bytes(await self.reconciler.layout.remote())
        if layout.generation == 0:
            layout = Layout.from_bytes(await self.reconciler.apply.remote(self.config.to_bytes()))
        self._take(layout)
        self._refreshed_at = time.monotonic()

    def _refresh_if_stale(self) -> None:
        """Under traffic, look at the layout at most every LAYOUT_REFRESH_S (another replica's
        reconfigure, a replaced host), without holding the message up."""
        if time.monotonic() - self._refreshed_at < LAYOUT_REFRESH_S or self._refreshing is not None:
            return
        self._refreshed_at = time.monotonic()
        self._refreshing = asyncio.get_running_loop().create_task(self.refresh())
        self._refreshing.add_done_callback(self._refreshed)

    def _refreshed(self, task: asyncio.Task[None]) -> None:
        self._refreshing = None
        if not task.cancelled() and task.exception() is not None:
            log.warning("layout refresh failed: %s", task.exception())

    def _host_for_key(self, key: str) -> PersonHostHandle | None:
        """None while the layout is empty (the only host is being replaced)."""
        return self.hosts[host_index(key, len(self.hosts))] if self.hosts else None

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        """The reply for one accepted message, or TurnFailed (the gateway records the failure in
        the inbound log and apologises; the pool never writes the log)."""
        match await self._in_order(placement_key(envelope), "handle", envelope):
            case TurnAnswered(result=result):
                return result
            case other:
                raise TurnFailed(f"a host answered a message with {other.status}")

    async def session(self, op: SessionOp) -> SessionReply:
        """One op of a phone call, run by the caller's PersonActor (or their number's address
        actor) in order with their texts (actors.host.person_session); TurnFailed as for a message."""
        match await self._in_order(op.key, "session", op):
            case CallAnswered(session=session):
                return session
            case other:
                raise TurnFailed(f"a host answered a call's op with {other.status}")

    async def _in_order(self, key: str, method: str, item: MessageEnvelope | SessionOp) -> Answered:
        """Ray does not keep submission order for async actors, so this pool hands a person's
        messages to the host one after another (each waits for the previous one's answer): per
        person they would run one at a time anyway, and the host's mailbox orders what arrives
        from several replicas."""
        previous = self._tails.get(key)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._tails[key] = done  # before any await: the order of submit calls is the order sent
        try:
            if previous is not None:
                await asyncio.wait([previous])
            self._refresh_if_stale()
            return await self._send(key, method, item)
        finally:
            done.set_result(None)
            if self._tails.get(key) is done:
                del self._tails[key]

    async def _send(self, key: str, method: str, item: MessageEnvelope | SessionOp) -> Answered:
        data = _wire(item)
        deadline = time.monotonic() + self.config.submit_timeout_s
        target, backoff = self._host_for_key(key), RetryBackoff()
        while (left := deadline - time.monotonic()) > 0:
            if target is None:
                target = await self._rehome(key, backoff)
                continue
            try:
                async with asyncio.timeout(left):  # awaits the ref in this task: no task per message
                    raw = await getattr(target, method).remote(data)
            except TimeoutError:
                break
            except RayActorError as exc:  # retired, replaced or lost: the layout says who now
                log.info("host lost a message for %s (%s); asking the layout again", key, type(exc).__name__)
                target = await self._rehome(key, backoff)
                continue
            match read_host_reply(raw):
                case TurnAnswered() | CallAnswered() as answered:
                    return answered
                case HostFailed(error=error):
                    raise TurnFailed(error or "turn failed")
                case HostMoved(rekey=rekey) if rekey:  # the message belongs to a Person (the address resolved, a merge survivor)
                    field = "participant_id" if isinstance(item, MessageEnvelope) else "person_id"
                    item = item.model_copy(update={field: person_of(rekey)})
                    data, key = _wire(item), rekey
                    target = self._host_for_key(key)
                case HostMoved(owner=named):
                    owner = await self._owner_handle(named) if named else None
                    target = owner if owner is not None and owner is not target else await self._rehome(key, backoff)
        raise TurnFailed(f"no host answered for {key} within {self.config.submit_timeout_s:.0f}s")

    async def _rehome(self, key: str, backoff: RetryBackoff) -> PersonHostHandle | None:
        """The person's host went away or is handing the person over: wait a little (a
        retiring owner is releasing the lease), read the layout, place again."""
        await backoff.sleep()
        try:
            await self.refresh()
        except RayActorError as exc:
            log.warning("reconciler unreachable: %s", exc)
        return self._host_for_key(key)

    async def _owner_handle(self, owner: str) -> PersonHostHandle | None:
        """The live owner named by a lease: one of ours, or a host of another pool sharing the store."""
        if owner in self._owners:
            return self._owners[owner]
        namespace, name = host_of(owner)
        try:
            handle = ray.get_actor(name, namespace=namespace)
        except ValueError:
            return None  # owner gone: its lease lapses, or the reconciler revokes it
        self._owners[owner] = handle
        return handle

    async def actors(self) -> list[ActorInfo]:
        """Active PersonActors on the layout's hosts, for the admin API (a dead host lists none)."""
        found = await asyncio.gather(*(h.list_actors.remote() for h in self.hosts), return_exceptions=True)
        infos = []
        for raw in found:
            if isinstance(raw, bytes):
                infos += unpack_models(ActorInfo, raw)
        return sorted(infos, key=lambda i: (i.host, i.key))

    async def shutdown(self, *, kill: bool = False) -> None:
        """Deactivate every PersonActor (refresh, release leases); with kill, end the actors
        too, the reconciler first so that it does not replace them."""
        await asyncio.gather(*(h.drain.remote() for h in self.hosts), return_exceptions=True)
        if kill:
            dispatcher = self.dispatcher
            for handle in [self.reconciler, *self.hosts, dispatcher, self._scheduler()]:
                if handle is not None:
                    kill_actor(handle)

    def _scheduler(self) -> Any:
        from actors.control.scheduler import SCHEDULER_NAME

        try:
            return ray.get_actor(SCHEDULER_NAME, namespace=self.config.namespace)
        except ValueError:
            return None


class RetryBackoff:
    """20 ms, doubling to 500 ms: a handover takes one lease release (a store write after the
    personContext refresh); a replaced host takes a process start."""

    def __init__(self, first_s: float = 0.02, cap_s: float = 0.5) -> None:
        self.delay_s, self.cap_s = first_s, cap_s

    async def sleep(self) -> None:
        await asyncio.sleep(self.delay_s)
        self.delay_s = min(self.cap_s, self.delay_s * 2)


def _wire(item: MessageEnvelope | SessionOp) -> bytes:
    return item.to_bytes() if isinstance(item, MessageEnvelope) else SessionRequest(op=item).to_bytes()
