"""Dispatcher: the only path from a turn to a tool handler, plus speculative prefetch.

Every call re-derives the caller's authority from the store (tools.dispatch does that through
load_caller/authorize), whatever the PersonActor or the model claims. Prefetch runs read-only
tools the caller may call, in parallel with the first model call, and keeps their results for a
short time so the model's matching call is served from the cache. The Ray DispatcherActor hosts
one of these; tests use it in-process.
"""
from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field

from spine.repo import Spine
from spine.toolspec import ToolInvocation, ToolResult
from tools.caller import Caller, load_caller
from tools.dispatch import dispatch, serve_prefetched

PREFETCH_TTL_S = 60.0


def invocation_key(name: str, tool_input: dict) -> str:
    return name + json.dumps(tool_input, sort_keys=True, separators=(",", ":"))


@dataclass
class _Prefetched:
    invocation: ToolInvocation
    task: asyncio.Task
    started: float
    for_caller: tuple[str | None, str]  # (person_id, property_id) the lookup ran for
    hit: bool = False


@dataclass
class Dispatcher:
    spine: Spine
    ttl_s: float = PREFETCH_TTL_S
    _cache: dict[str, dict[str, _Prefetched]] = field(default_factory=dict)

    async def _fresh_caller(self, caller: Caller) -> Caller:
        """Authority comes from the store, not from the caller object we were handed."""
        return await load_caller(self.spine, caller.person_id, caller.property_id, caller.interaction_id, caller.channel)

    async def run(self, invocation: ToolInvocation, caller: Caller) -> ToolResult:
        fresh = await self._fresh_caller(caller)
        entry = self._cache.get(caller.interaction_id, {}).get(invocation_key(invocation.name, invocation.input))
        if entry is not None and entry.for_caller == (fresh.person_id, fresh.property_id):
            result = await entry.task
            if not result.is_error:
                served = await serve_prefetched(self.spine, invocation, fresh, result)
                entry.hit = entry.hit or not served.is_error
                return served
        return await dispatch(self.spine, invocation, fresh)

    async def prefetch(self, invocations: list[ToolInvocation], caller: Caller) -> None:
        """Start read-only lookups in the background; returns at once."""
        self._evict()
        fresh = await self._fresh_caller(caller)
        slot = self._cache.setdefault(caller.interaction_id, {})
        for inv in invocations:
            key = invocation_key(inv.name, inv.input)
            if key not in slot:
                probe = inv.model_copy(update={"tool_use_id": f"prefetch-{len(slot)}"})
                slot[key] = _Prefetched(inv, asyncio.create_task(dispatch(self.spine, probe, fresh)), time.monotonic(),
                                        (fresh.person_id, fresh.property_id))

    async def prefetch_report(self, interaction_id: str) -> list[dict]:
        """hit | unused | refused | failed for each prefetch of an interaction; forgets them."""
        report = []
        for entry in self._cache.pop(interaction_id, {}).values():
            result = await entry.task
            if entry.hit:
                status = "hit"
            elif result.decision == "refused":
                status = "refused"
            elif result.is_error:
                status = "failed"
            else:
                status = "unused"
            report.append({"name": entry.invocation.name, "input": entry.invocation.input, "status": status})
        return report

    def _evict(self) -> None:
        now = time.monotonic()
        for iid in [i for i, slot in self._cache.items()
                    if all(now - e.started > self.ttl_s for e in slot.values())]:
            del self._cache[iid]
