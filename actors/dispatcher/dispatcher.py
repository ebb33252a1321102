"""Dispatcher: the only path from a turn to a tool handler, plus speculative prefetch.

Every call is decided on authority the dispatcher derived from the store itself
(`tools.authority`), whatever the PersonActor or the model claims: the Caller a turn sends
names only who (Person.id) and where (property) and carries no roles (tools.caller). A derivation is
kept for at most STALE_AFTER_S and dropped at once when one of the person's tools writes, so a
role removed in the store is refused within that bound. Prefetch runs read-only tools the caller
may call, in parallel with the first model call, and keeps their results for a short time so
the model's matching call is served from the cache. The Ray DispatcherActor hosts one of these;
tests use it in-process.
"""
from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from actors.protocol.turn import TurnStart
from spine.context import Channel
from spine.repo import Spine
from spine.store.counting import ReadCount, add_reads, count_round_trip
from spine.toolspec import CallDecision, ToolInvocation, ToolResult
from tools.authority import STALE_AFTER_S, Authority, derive_authority
from tools.caller import Caller
from tools.dispatch import dispatch, serve_prefetched
from tools.matrix import TOOL_ROLE_MATRIX
from tools.prefetch import offered_lookups

PREFETCH_TTL_S = 60.0


def invocation_key(name: str, tool_input: dict[str, Any]) -> str:
    return name + json.dumps(tool_input, sort_keys=True, separators=(",", ":"))


def writes(name: str, decision: CallDecision, is_error: bool) -> bool:
    """A call that may have changed the store: an allowed, successful, side-effecting tool."""
    policy = TOOL_ROLE_MATRIX.get(name)
    return policy is not None and not policy.read_only and decision == "allowed" and not is_error


@dataclass
class _Prefetched:
    invocation: ToolInvocation
    task: asyncio.Task[ToolResult]
    started: float
    for_caller: tuple[str | None, str]  # (person_id, property_id) the lookup ran for
    hit: bool = False


@dataclass
class Dispatcher:
    spine: Spine
    ttl_s: float = PREFETCH_TTL_S
    stale_after_s: float = STALE_AFTER_S
    clock: Callable[[], float] = time.time
    _cache: dict[str, dict[str, _Prefetched]] = field(default_factory=dict)
    _authority: dict[tuple[str | None, str], Authority] = field(default_factory=dict)
    _callers: dict[tuple[str, str | None, str, str, str | None], tuple[float, Caller]] = field(default_factory=dict)
    _swept_at: float = 0.0

    # -- authority ------------------------------------------------------------------------
    async def authority(self, person_id: str | None, property_id: str, *, fresh: bool = False) -> Authority:
        """The derivation for (person, property): the kept one while younger than the bound,
        else (or with `fresh`) a new one, which replaces it."""
        count_round_trip()  # in-process, the turn's own count; in Ray, RayToolRunner counts it
        return await self._authority_of(person_id, property_id, fresh=fresh)

    async def _authority_of(self, person_id: str | None, property_id: str, *, fresh: bool = False) -> Authority:
        key = (person_id, property_id)
        kept = self._authority.get(key)
        now = self.clock()
        if kept is not None and not fresh and now - kept.derived_at < self.stale_after_s:
            return kept.model_copy(update={"store_reads": {}})
        self._drop_stale(now)
        with ReadCount() as reads:
            derived = await derive_authority(self.spine, person_id, property_id, now)
        if len(self._authority) > 50_000:
            self._authority.clear()  # a rare full reset beats LRU bookkeeping; entries are seconds old
        self._authority[key] = derived.model_copy(update={"store_reads": {}})
        derived.store_reads = reads.as_dict()
        add_reads(derived.store_reads)  # in-process, the turn that asked counts them
        return derived

    def _drop_stale(self, now: float) -> None:
        """Forget derivations past the staleness bound, and the Callers built from them: neither
        is used again (`authority` derives anew, `_fresh_caller` matches on `derived_at`). Most
        interactions never ask for a prefetch report, the other way a Caller is forgotten, so
        without this the DispatcherActor's heap grew by every turn's Caller (bench/soak.py)."""
        if now - self._swept_at < self.stale_after_s:
            return
        self._swept_at = now
        for key in [k for k, a in self._authority.items() if now - a.derived_at >= self.stale_after_s]:
            del self._authority[key]
        for caller_key in [k for k, (at, _) in self._callers.items() if now - at >= self.stale_after_s]:
            del self._callers[caller_key]

    def held(self) -> dict[str, int]:
        """What this dispatcher holds in memory: derivations, Callers, interactions with prefetches."""
        return {"authorities": len(self._authority), "callers": len(self._callers), "prefetched": len(self._cache)}

    def forget(self, person_id: str | None) -> None:
        """The person's tools wrote: derive their authority anew on the next call."""
        for key in [k for k in self._authority if k[0] == person_id]:
            del self._authority[key]
        for caller_key in [k for k in self._callers if k[1] == person_id]:
            del self._callers[caller_key]

    async def _fresh_caller(self, caller: Caller) -> Caller:
        """Authority comes from our own derivation, not from the caller object we were handed;
        one Caller per interaction and derivation, so the gate's facts are loaded once."""
        authority = await self._authority_of(caller.person_id, caller.property_id)
        key = (caller.interaction_id, caller.person_id, caller.property_id, str(caller.channel), caller.impersonated_by)
        kept = self._callers.get(key)
        if kept is not None and kept[0] == authority.derived_at:
            return kept[1]
        # Who impersonates is carried like who is spoken as; the gate derives that Person's authority too.
        fresh = Caller.of(authority, caller.interaction_id, Channel(caller.channel), caller.impersonated_by)
        if len(self._callers) > 10_000:
            self._callers.clear()
        self._callers[key] = (authority.derived_at, fresh)
        return fresh

    # -- tools ----------------------------------------------------------------------------
    async def run(self, invocation: ToolInvocation, caller: Caller) -> ToolResult:
        count_round_trip()
        with ReadCount() as reads:
            result = await self._run(invocation, await self._fresh_caller(caller))
        if writes(result.name, result.decision, result.is_error):
            self.forget(caller.person_id)
        result.store_reads = reads.as_dict()
        add_reads(result.store_reads)
        return result

    async def _run(self, invocation: ToolInvocation, fresh: Caller) -> ToolResult:
        entry = self._cache.get(fresh.interaction_id, {}).get(invocation_key(invocation.name, invocation.input))
        if entry is not None and entry.for_caller == (fresh.person_id, fresh.property_id):
            asked = time.perf_counter()
            result = await entry.task
            if not result.is_error:
                served = await serve_prefetched(self.spine, invocation, fresh, result)
                entry.hit = entry.hit or not served.is_error
                if not served.is_error:
                    add_reads(result.store_reads)  # the lookup's reads count for the turn it served
                # What this call waited (the rest of the lookup, the gate's check), not the lookup's
                # own time: the trace's latency is what prefetch did or did not hide.
                served.latency_ms = round((time.perf_counter() - asked) * 1000, 3)
                return served
        return await dispatch(self.spine, invocation, fresh)

    async def _probe(self, invocation: ToolInvocation, caller: Caller) -> ToolResult:
        with ReadCount() as reads:
            result = await dispatch(self.spine, invocation, caller)
        result.store_reads = reads.as_dict()
        return result

    async def prefetch(self, invocations: list[ToolInvocation], caller: Caller) -> list[dict[str, Any]]:
        """Run read-only lookups and keep them for the model's matching calls; returns how each
        lookup ended (unused | refused | failed). The turn sends this beside its first model
        call and marks as hits the calls served from it (ToolResult.prefetched), so the trace's
        prefetch report costs no round trip of its own."""
        count_round_trip()
        return await _statuses(self._start(invocations, await self._fresh_caller(caller)))

    async def begin_turn(self, caller: Caller, wanted: list[ToolInvocation], *, fresh: bool = False) -> TurnStart:
        """A turn's first hop when its Opening is due a re-check: the person's authority (derived
        anew with `fresh`) and, started with it, the wanted lookups this derivation offers, so a
        turn makes at most 1 + N round trips for N tool calls."""
        count_round_trip()
        authority = await self._authority_of(caller.person_id, caller.property_id, fresh=fresh)
        who = await self._fresh_caller(caller)
        chosen = offered_lookups(wanted, who)
        lookups = asyncio.ensure_future(_statuses(self._start(chosen, who))) if chosen else None
        return TurnStart(authority=authority, lookups=lookups)

    def _start(self, invocations: list[ToolInvocation], fresh: Caller) -> list[_Prefetched]:
        """The lookups, started now (so a matching call finds them) and kept for the interaction."""
        self._evict()
        slot = self._cache.setdefault(fresh.interaction_id, {})
        started = []
        for inv in invocations:
            key = invocation_key(inv.name, inv.input)
            if key not in slot:
                probe = inv.model_copy(update={"tool_use_id": f"prefetch-{len(slot)}"})
                slot[key] = _Prefetched(inv, asyncio.create_task(self._probe(probe, fresh)), time.monotonic(),
                                        (fresh.person_id, fresh.property_id))
            started.append(slot[key])
        return started

    async def prefetch_report(self, interaction_id: str) -> list[dict[str, Any]]:
        """hit | unused | refused | failed for each prefetch of an interaction; forgets them
        (a call's session asks at its end; an SMS turn folds the report from `prefetch`)."""
        count_round_trip()
        report = []
        for entry in self._cache.pop(interaction_id, {}).values():
            result = await entry.task
            report.append({"name": entry.invocation.name, "input": entry.invocation.input,
                           "status": "hit" if entry.hit else _status(entry, result)})
        for key in [k for k in self._callers if k[0] == interaction_id]:
            del self._callers[key]
        return report

    def _evict(self) -> None:
        now = time.monotonic()
        for iid in [i for i, slot in self._cache.items()
                    if all(now - e.started > self.ttl_s for e in slot.values())]:
            del self._cache[iid]
        if len(self._callers) > 10_000:
            self._callers.clear()


async def _statuses(started: list[_Prefetched]) -> list[dict[str, Any]]:
    """How each lookup ended, once all have."""
    return [{"name": e.invocation.name, "input": e.invocation.input, "status": _status(e, await e.task)}
            for e in started]


def _status(entry: _Prefetched, result: ToolResult) -> str:
    if entry.hit:
        return "hit"
    if result.decision == "refused":
        return "refused"
    return "failed" if result.is_error else "unused"


def fold_prefetch(report: list[dict[str, Any]], served: list[tuple[str, dict[str, Any], bool]]) -> list[dict[str, Any]]:
    """The prefetch report a trace records: each lookup `prefetch` returned, "hit" where one of
    the turn's calls (name, input, prefetched) was served from it."""
    hits = {invocation_key(name, tool_input) for name, tool_input, prefetched in served if prefetched}
    return [{**p, "status": "hit"} if invocation_key(p["name"], p["input"]) in hits else p for p in report]
