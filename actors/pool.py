"""HostPool: the gateway's handle on the actor runtime.

`await HostPool.start(config)` once per Serve replica creates the named host actors and the
DispatcherActor in `config.namespace`, or gets them if another replica already did.
`await pool.submit(envelope)` places the person on a host by a stable hash of its placement key;
if the store lease says another live host owns that person (the pool was resized, or two pools
share a store), the host answers 'moved' and the pool resends there.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgpack
import ray
from ray.exceptions import GetTimeoutError, RayActorError

from actors.config import RuntimeConfig
from actors.dispatcher_actor import DISPATCHER_NAME, DispatcherActor
from actors.host import HostReply, PersonActorHost, host_name, owner_id
from actors.person_actor import ActorInfo
from actors.placement import host_index, person_of, placement_key
from actors.turn_types import TurnResult
from spine.envelope import MessageEnvelope
from spine.repo import Spine
from spine.store.url import open_store

log = logging.getLogger("clara.pool")

MAX_HOPS = 4


class TurnFailed(Exception):
    """No reply for this message; its failure is recorded in the inbound log when possible.
    The gateway answers the person with its fallback text."""


class HostPool:
    def __init__(self, config: RuntimeConfig, hosts: list[Any], dispatcher: Any, spine: Spine) -> None:
        self.config, self.hosts, self.dispatcher, self.spine = config, hosts, dispatcher, spine
        self._owners = {owner_id(config.namespace, host_name(i)): h for i, h in enumerate(hosts)}
        self._tails: dict[str, asyncio.Future] = {}  # per person: the last message handed to a host

    @classmethod
    async def start(cls, config: RuntimeConfig, spine: Spine | None = None) -> "HostPool":
        common = dict(namespace=config.namespace, get_if_exists=True, max_restarts=-1,
                      max_task_retries=config.max_task_retries,
                      lifetime="detached" if config.detached else None)
        data = config.to_bytes()
        dispatcher = DispatcherActor.options(name=DISPATCHER_NAME, num_cpus=config.dispatcher_num_cpus,
                                             max_concurrency=config.dispatcher_max_concurrency,
                                             **common).remote(data)
        await dispatcher.ping.remote()
        hosts = [PersonActorHost.options(name=host_name(i), num_cpus=config.host_num_cpus,
                                         max_concurrency=config.host_max_concurrency, **common)
                 .remote(host_name(i), data, DISPATCHER_NAME) for i in range(config.hosts)]
        await asyncio.gather(*(h.ping.remote() for h in hosts))
        spine = spine or Spine(open_store(config.store_url, timeout_s=config.store_timeout_s))
        return cls(config, hosts, dispatcher, spine)

    def host_for(self, envelope: MessageEnvelope) -> Any:
        return self.hosts[host_index(placement_key(envelope), len(self.hosts))]

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        """The reply for one accepted message, or TurnFailed (the gateway records the failure in
        the inbound log and apologises; the pool never writes the log).

        Ray does not keep submission order for async actors, so this pool hands a person's
        messages to the host one after another (each waits for the previous one's answer): per
        person they would run one at a time anyway, and the host's mailbox orders what arrives
        from several replicas."""
        key = placement_key(envelope)
        previous = self._tails.get(key)
        done = asyncio.get_running_loop().create_future()
        self._tails[key] = done  # before any await: the order of submit calls is the order sent
        try:
            if previous is not None:
                await asyncio.wait([previous])
            return await self._send(envelope, key)
        finally:
            done.set_result(None)
            if self._tails.get(key) is done:
                del self._tails[key]

    async def _send(self, envelope: MessageEnvelope, key: str) -> TurnResult:
        data = envelope.to_bytes()
        target = self.hosts[host_index(key, len(self.hosts))]
        for _ in range(MAX_HOPS):
            try:
                raw = await asyncio.wait_for(target.handle.remote(data), self.config.submit_timeout_s)
            except asyncio.TimeoutError as exc:
                raise TurnFailed(f"no answer within {self.config.submit_timeout_s:.0f}s") from exc
            except (RayActorError, GetTimeoutError) as exc:
                raise TurnFailed(f"host lost the message: {exc}") from exc
            reply = HostReply.from_bytes(raw)
            if reply.status == "ok" and reply.result is not None:
                return reply.result
            if reply.status == "failed":
                raise TurnFailed(reply.error or "turn failed")
            if reply.rekey:  # the message belongs to a Person (the address resolved, a merge survivor)
                envelope = envelope.model_copy(update={"participant_id": person_of(reply.rekey)})
                data, key = envelope.to_bytes(), reply.rekey
                target = self.hosts[host_index(key, len(self.hosts))]
                continue
            target = await self._owner_handle(reply.owner or "") or target
        raise TurnFailed(f"could not find the owner of {key}")

    async def _owner_handle(self, owner: str) -> Any | None:
        """The live owner named by a lease: one of ours, or a host of another pool sharing the store."""
        if owner in self._owners:
            return self._owners[owner]
        namespace, _, name = owner.partition("/")
        try:
            handle = ray.get_actor(name, namespace=namespace)
        except ValueError:
            await asyncio.sleep(min(1.0, self.config.lease_ttl_s / 4))  # owner gone: wait out its lease
            return None
        self._owners[owner] = handle
        return handle

    async def actors(self) -> list[ActorInfo]:
        """Active PersonActors on every host, for the admin API (a dead host lists none)."""
        found = await asyncio.gather(*(h.list_actors.remote() for h in self.hosts), return_exceptions=True)
        infos = []
        for raw in found:
            if isinstance(raw, bytes):
                infos += [ActorInfo.model_validate(d) for d in msgpack.unpackb(raw)]
        return sorted(infos, key=lambda i: (i.host, i.key))

    async def shutdown(self, *, kill: bool = False) -> None:
        """Deactivate every PersonActor (refresh, release leases); with kill, end the actors too."""
        await asyncio.gather(*(h.drain.remote() for h in self.hosts), return_exceptions=True)
        if kill:
            for handle in [*self.hosts, self.dispatcher]:
                ray.kill(handle, no_restart=True)
