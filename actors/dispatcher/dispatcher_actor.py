"""DispatcherActor: the Ray actor that is the only path to tool handlers (ARCHITECTURE decision 2).

It hosts one `actors.dispatcher.dispatcher.Dispatcher`, which re-derives the caller's authority from the
store on every call. Invocations, callers and results cross as msgpack bytes of their pydantic
dumps (decision 7): a Caller's private facts never travel, so nothing claimed is trusted.
`RayToolRunner` is the ToolRunner a turn uses in Ray.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import ray
from ray.exceptions import ActorDiedError

from actors.config import RuntimeConfig
from actors.heap import heap_blocks, settle_heap
from actors.protocol.handles import DispatcherHandle
from actors.protocol.turn import TurnStart
from spine.codec import pack, unpack
from spine.repo import Spine
from spine.store.counting import add_reads, count_round_trip, counting
from spine.store.url import open_store
from spine.toolspec import ToolInvocation, ToolResult
from tools.authority import Authority
from tools.caller import Caller

DISPATCHER_NAME = "clara-dispatcher"
log = logging.getLogger("clara.dispatcher")


class DispatcherService:
    """The Dispatcher behind a bytes interface; Ray hosts it as DispatcherActor."""

    def __init__(self, config_bytes: bytes) -> None:
        from actors.dispatcher.dispatcher import Dispatcher

        config = RuntimeConfig.from_bytes(config_bytes)
        self.config_data = config_bytes
        self.dispatcher = Dispatcher(Spine(counting(open_store(config.store_url, timeout_s=config.store_timeout_s))))

    async def run(self, invocation: bytes, caller: bytes) -> bytes:
        result = await self.dispatcher.run(ToolInvocation.model_validate(unpack(invocation)),
                                           Caller.model_validate(unpack(caller)))
        return pack(result)

    async def authority(self, person_id: str | None, property_id: str, fresh: bool = False) -> bytes:
        return pack(await self.dispatcher.authority(person_id, property_id, fresh=fresh))

    async def prefetch(self, invocations: bytes, caller: bytes) -> bytes:
        return pack(await self.dispatcher.prefetch([ToolInvocation.model_validate(i) for i in unpack(invocations)],
                                       Caller.model_validate(unpack(caller))))

    async def prefetch_report(self, interaction_id: str) -> bytes:
        return pack(await self.dispatcher.prefetch_report(interaction_id))

    async def begin_turn(self, caller: bytes, wanted: bytes, fresh: bool) -> AsyncIterator[bytes]:
        """Two results of one call (a Ray streaming generator): the authority as soon as it is
        derived, then how the lookups started with it ended."""
        start = await self.dispatcher.begin_turn(Caller.model_validate(unpack(caller)),
                                                 [ToolInvocation.model_validate(i) for i in unpack(wanted)], fresh=fresh)
        yield pack(start.authority)
        yield pack(await start.lookups if start.lookups is not None else None)

    async def ping(self) -> str:
        return DISPATCHER_NAME

    async def heap_blocks(self) -> int:
        """This process's Python heap in allocator blocks (actors.heap.heap_blocks)."""
        return heap_blocks()

    async def config_bytes(self) -> bytes:
        """The RuntimeConfig this process was built with (the HostReconciler compares it)."""
        return self.config_data


class _RayDispatcherService(DispatcherService):
    def __init__(self, config_bytes: bytes) -> None:
        super().__init__(config_bytes)
        settle_heap()  # a process of its own: its start-up heap out of the collector's way


DispatcherActor = ray.remote(_RayDispatcherService)


class RayToolRunner:
    """ToolRunner over a DispatcherActor handle (actors.protocol.turn.ToolRunner).

    With `resolve` (how to look the DispatcherActor up by name), a handle found dead is looked
    up again and the call sent once more: the HostReconciler replaces the DispatcherActor when
    its process settings change, and a handle to the old process stays dead for good. Sending
    again is safe: side-effecting tools are idempotent on (interaction_id, tool_use_id)."""

    def __init__(self, handle: DispatcherHandle | None = None, *,
                 resolve: Callable[[], DispatcherHandle] | None = None) -> None:
        if handle is None and resolve is None:
            raise ValueError("RayToolRunner needs a DispatcherActor handle or a way to resolve one")
        self.handle, self.resolve = handle, resolve

    async def _call(self, method: str, *args: Any) -> Any:
        if self.handle is None:
            self.handle = self._resolved()
        count_round_trip()  # this host's turn pays the hop (the actor's own count is in its process)
        try:
            return await getattr(self.handle, method).remote(*args)
        except ActorDiedError:
            if self.resolve is None:
                raise
            self.handle = self._resolved()  # the replacement, under the same name
            return await getattr(self.handle, method).remote(*args)

    def _resolved(self) -> DispatcherHandle:
        assert self.resolve is not None  # __init__ refuses neither a handle nor a resolver
        return self.resolve()

    async def run(self, invocation: ToolInvocation, caller: Caller) -> ToolResult:
        result = ToolResult.model_validate(unpack(await self._call("run", pack(invocation), pack(caller))))
        add_reads(result.store_reads)  # the dispatcher's reads count for the turn that asked
        return result

    async def authority(self, person_id: str | None, property_id: str, *, fresh: bool = False) -> Authority:
        derived = Authority.model_validate(unpack(await self._call("authority", person_id, property_id, fresh)))
        add_reads(derived.store_reads)
        return derived

    async def prefetch(self, invocations: list[ToolInvocation], caller: Caller) -> list[dict[str, Any]]:
        report: list[dict[str, Any]] = unpack(await self._call("prefetch", pack(invocations), pack(caller)))
        return report

    async def prefetch_report(self, interaction_id: str) -> list[dict[str, Any]]:
        report: list[dict[str, Any]] = unpack(await self._call("prefetch_report", interaction_id))
        return report

    async def begin_turn(self, caller: Caller, wanted: list[ToolInvocation], *, fresh: bool = False) -> TurnStart:
        """One call, two results: the authority now, the lookups' statuses when they end."""
        if self.handle is None:
            self.handle = self._resolved()
        count_round_trip()
        args = (pack(caller), pack(wanted), fresh)
        results = self.handle.begin_turn.remote(*args)
        try:
            first = await results.__anext__()
            authority = Authority.model_validate(unpack(await first))
        except ActorDiedError:
            if self.resolve is None:
                raise
            self.handle = self._resolved()  # the replacement, under the same name
            results = self.handle.begin_turn.remote(*args)
            authority = Authority.model_validate(unpack(await (await results.__anext__())))
        add_reads(authority.store_reads)
        return TurnStart(authority=authority, lookups=asyncio.ensure_future(_lookups_of(results)))


async def _lookups_of(results: Any) -> list[dict[str, Any]]:
    """The second result of begin_turn: how the lookups ended ([] when none were started, or
    when the dispatcher went away meanwhile: a lost speculation costs the report, never the turn)."""
    try:
        statuses: list[dict[str, Any]] | None = unpack(await (await results.__anext__()))
    except Exception as exc:  # noqa: BLE001 - awaited by the trace's report, or by no one
        log.warning("the lookups begun with a turn were lost: %s", exc)
        return []
    return statuses or []


def named_dispatcher(namespace: str, name: str = DISPATCHER_NAME) -> Callable[[], Any]:
    """Looks the namespace's DispatcherActor up by name (RayToolRunner's `resolve`)."""
    return lambda: ray.get_actor(name, namespace=namespace)
