"""What a resize asks of one host, without Ray: retiring (finish what was accepted, refuse the
rest, deactivate everyone: refresh, release), live settings, and revoked owners' leases."""
from __future__ import annotations

import asyncio

import pytest

from actors.config import RuntimeConfig
from actors.host.host import apply_live_settings
from actors.host.person_actor import Moved
from tests.support.actor_helpers import RecordingRefresh, RecordingTurn, envelope, make_host


async def test_a_retiring_host_finishes_what_it_accepted_refuses_the_rest_and_releases_everyone(spine, clock):
    gate = asyncio.Event()
    refresh = RecordingRefresh()
    old = make_host(spine, "ns/clara-host-1", RecordingTurn(spine, gate=gate), clock, refresh=refresh)
    accepted = [asyncio.ensure_future(old.submit(envelope(p, f"{p} before"))) for p in ("p_marcus", "p_mike")]
    await asyncio.sleep(0.01)
    retiring = asyncio.ensure_future(old.retire())
    await asyncio.sleep(0.01)
    with pytest.raises(Moved) as refused:
        await old.submit(envelope("p_marcus", "during the drain"))
    assert refused.value.owner is None and refused.value.rekey is None  # the pool asks the layout
    assert not retiring.done()  # the accepted turns are still running
    gate.set()
    assert [r.reply for r in await asyncio.gather(*accepted)] == ["re: p_marcus before", "re: p_mike before"]
    assert await retiring == 2 and old.persons == {}
    assert sorted(person for person, _, _ in refresh.calls) == ["p_marcus", "p_mike"]
    new = make_host(spine, "ns/clara-host-0", RecordingTurn(spine), clock)
    assert (await new.submit(envelope("p_marcus", "after"))).reply == "re: after"  # no lease to wait out


async def test_a_revoked_owner_holds_no_one(spine, clock):
    dead = make_host(spine, "ns/clara-host-2", RecordingTurn(spine), clock)
    await dead.submit(envelope("p_jordan", "hi"))  # then its process vanished without draining
    survivor = make_host(spine, "ns/clara-host-0", RecordingTurn(spine), clock)
    with pytest.raises(Moved):
        await survivor.submit(envelope("p_jordan", "anyone?"))
    survivor.runtime.ownerships.revoked = frozenset({"ns/clara-host-2"})
    assert (await survivor.submit(envelope("p_jordan", "anyone?"))).reply == "re: anyone?"
    assert (await survivor.runtime.ownerships.current("person:p_jordan")).owner == "ns/clara-host-0"


async def test_live_settings_reach_a_running_host(spine, clock):
    host = make_host(spine, "ns/clara-host-0", RecordingTurn(spine), clock, idle_s=300)
    await host.submit(envelope("p_ellen", "hi"))
    apply_live_settings(host.runtime, RuntimeConfig(idle_deactivate_s=20, lease_ttl_s=10, turn_total_s=6,
                                                    turn_function="tests.support.turn_helpers:counted_turn"))
    assert (host.runtime.idle_deactivate_s, host.runtime.ownerships.ttl_s) == (20, 30)
    assert host.runtime.deps.budget.total_s == 6 and host.runtime.turn.__name__ == "counted_turn"
    clock.advance(21)
    await host.sweep_once()  # the old 300 s limit would keep her warm
    await asyncio.sleep(0.01)
    assert host.actor_infos() == []


def test_the_runtime_config_refuses_unknown_keys_and_knows_what_needs_a_new_process():
    with pytest.raises(ValueError, match="idle_limit"):
        RuntimeConfig.model_validate({"idle_limit": 20})
    base = RuntimeConfig()
    assert base.model_copy(update={"idle_deactivate_s": 20}).host_process() == base.host_process()
    assert base.model_copy(update={"host_num_cpus": 1.0}).host_process() != base.host_process()
    assert base.model_copy(update={"dispatcher_num_cpus": 1.0}).dispatcher_process() != base.dispatcher_process()
