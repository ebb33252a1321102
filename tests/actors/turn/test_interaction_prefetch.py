"""The turn's speculative prefetch and its knob (RuntimeConfig.prefetch, live on a running host):
on, the lookups the message suggests start beside the first model call and the model's matching
call is served from them; off, no lookup is started and every call is a lookup of its own."""
from __future__ import annotations

import dataclasses
import time

from actors.config import RuntimeConfig
from actors.host.host import apply_live_settings
from actors.turn.interaction import run_interaction
from actors.turn.opening import open_for
from spine.repo import Spine
from spine.store.counting import counting
from tests.support.actor_helpers import RecordingTurn, make_host, real_host
from tests.support.actor_helpers import envelope as actor_envelope
from tests.support.turn_helpers import envelope
from tools.authority import STALE_AFTER_S


async def test_prefetch_on_serves_the_models_call_from_the_lookup_started_beside_it(offline_deps):
    trace = (await run_interaction(offline_deps, envelope("+13035552020", "check on WO-42"))).trace
    served = [c for c in trace.tool_calls if c.prefetched]
    assert served and all(c.decision == "allowed" for c in served)
    assert {p.status for p in trace.prefetch} >= {"hit"}
    assert {(p.name, p.input["work_order_id"]) for p in trace.prefetch if p.status == "hit"} <= {
        ("get_work_order_detail", "WO-42"), ("get_dispatch_details", "WO-42")}


async def test_prefetch_off_starts_no_lookup_and_the_same_calls_still_answer(offline_deps):
    off = dataclasses.replace(offline_deps, prefetch=False)
    trace = (await run_interaction(off, envelope("+13035552020", "check on WO-42"))).trace
    assert trace.prefetch == [] and trace.tool_calls
    assert not any(c.prefetched for c in trace.tool_calls)
    assert all(c.decision == "allowed" and not c.is_error for c in trace.tool_calls)
    assert off.tools.held()["prefetched"] == 0  # nothing was left in the dispatcher's cache


async def test_the_knob_reaches_a_running_host(spine, clock):
    host = make_host(spine, "ns/clara-host-0", RecordingTurn(spine), clock)
    assert host.runtime.deps.prefetch is True  # the default
    apply_live_settings(host.runtime, RuntimeConfig(prefetch=False))
    assert host.runtime.deps.prefetch is False
    apply_live_settings(host.runtime, RuntimeConfig.model_validate({"prefetch": True}))
    assert host.runtime.deps.prefetch is True


async def test_a_warm_turn_with_n_tool_calls_makes_one_plus_n_dispatcher_round_trips(offline_deps):
    """The prefetch call brings back how each lookup ended, so the report the trace records costs
    no round trip of its own: prefetch + one per tool call. A turn that has to derive the
    Person's authority first (no warm Opening) pays that one call more."""
    first = envelope("+13035552020", "check on WO-42")
    cold = (await run_interaction(offline_deps, first)).trace
    assert cold.tool_calls and cold.prefetch
    assert cold.dispatcher_round_trips == 2 + len(cold.tool_calls)
    assert "dispatcher_round_trips" not in cold.store_reads  # the hop count is not a store read

    assert cold.participant_id is not None
    opening = await open_for(offline_deps.spine, offline_deps.tools, cold.participant_id, first.property_id,
                             channel=first.channel, address=first.from_address,
                             interaction_id=first.interaction_id, now=time.time())
    warm = (await run_interaction(offline_deps, envelope("+13035552020", "check on WO-42"), opening=opening)).trace
    assert warm.tool_calls and {p.status for p in warm.prefetch} >= {"hit"}
    assert warm.dispatcher_round_trips == 1 + len(warm.tool_calls)


async def test_every_turn_on_a_person_actor_makes_at_most_one_plus_n_round_trips(spine, clock):
    """The first turn (an Opening to build), a warm one, and one whose Opening is due a re-check:
    the authority comes with the lookups in one call (actors.turn.turn_start), so each makes
    exactly 1 + N host -> dispatcher round trips for its N tool calls."""
    host = real_host(Spine(counting(spine.store)), clock)
    cold = (await host.submit(actor_envelope("p_carlos", "check on WO-42"))).trace
    warm = (await host.submit(actor_envelope("p_carlos", "check on WO-42 please"))).trace
    clock.advance(STALE_AFTER_S)
    due = (await host.submit(actor_envelope("p_carlos", "any news on WO-42?"))).trace
    for trace in (cold, warm, due):
        assert trace.tool_calls and {p.status for p in trace.prefetch} >= {"hit"}, trace.reply
        assert trace.dispatcher_round_trips == 1 + len(trace.tool_calls)
    assert due.store_reads.get("person") == 1  # it did re-derive (one read serves the prompt and the gate)
