"""Owner leases: one host per person across contention, expiry, restarts and long turns."""
from __future__ import annotations

import asyncio

import pytest

from actors.host.ownership import OwnershipHeld, OwnershipLost, Ownerships
from actors.host.person_actor import Moved
from tests.support.actor_helpers import RecordingTurn, envelope, make_host, settle


async def test_racing_hosts_end_with_exactly_one_owner(spine, clock):
    contenders = [Ownerships(spine.store, f"host-{i}", 30, clock) for i in range(8)]
    outcomes = await asyncio.gather(*(c.acquire("person:p_marcus") for c in contenders), return_exceptions=True)
    won = [o for o in outcomes if not isinstance(o, Exception)]
    assert len(won) == 1
    assert all(isinstance(o, OwnershipHeld) and o.owner == won[0].owner for o in outcomes if o is not won[0])


async def test_two_hosts_contending_for_one_person_never_both_run_it(spine, clock):
    turn = RecordingTurn(spine, delay=0.01)
    a = make_host(spine, "ns/clara-host-0", turn, clock)
    b = make_host(spine, "ns/clara-host-1", turn, clock)
    envs = [envelope("p_marcus", f"m{i}") for i in range(10)]
    outcomes = await asyncio.gather(*(h.submit(e) for h, e in zip([a, b] * 5, envs, strict=True)), return_exceptions=True)
    answered = [o for o in outcomes if not isinstance(o, Exception)]
    moved = [o for o in outcomes if isinstance(o, Moved)]
    assert len(answered) + len(moved) == 10
    owners = {o.owner for o in moved}
    assert len(owners) == 1  # the losers are all sent to the one winner
    assert turn.max_running_per_person == 1
    assert len([h for h in (a, b) if "person:p_marcus" in h.persons]) == 1


async def test_a_released_lease_moves_to_the_next_host_at_once(spine, clock):
    a = make_host(spine, "ns/clara-host-0", RecordingTurn(spine), clock)
    b = make_host(spine, "ns/clara-host-1", RecordingTurn(spine), clock)
    await a.submit(envelope("p_marcus", "hi"))
    with pytest.raises(Moved):
        await b.submit(envelope("p_marcus", "hi again"))
    await a.drain()
    result = await b.submit(envelope("p_marcus", "third"))
    assert result.reply == "re: third"
    assert (await b.runtime.ownerships.current("person:p_marcus")).epoch == 2


async def test_a_lapsed_lease_taken_elsewhere_makes_the_old_host_forward(spine, clock):
    a = make_host(spine, "ns/clara-host-0", RecordingTurn(spine), clock, idle_s=60, ttl_s=30)
    b = make_host(spine, "ns/clara-host-1", RecordingTurn(spine), clock, idle_s=60, ttl_s=30)
    await a.submit(envelope("p_marcus", "hi"))
    clock.advance(89)
    with pytest.raises(Moved):  # the lease covers the idle window plus the margin
        await b.submit(envelope("p_marcus", "too early"))
    clock.advance(2)  # host 0 stalled (its sweeper never ran) past its lease
    await b.submit(envelope("p_marcus", "hello from the resized pool"))
    with pytest.raises(Moved) as moved:
        await a.submit(envelope("p_marcus", "late message to the old host"))
    assert moved.value.owner == "ns/clara-host-1"
    assert "person:p_marcus" not in a.persons  # its stale warm state is gone


async def test_a_restarted_host_takes_its_own_lease_back_and_fences_the_old_one(spine, clock):
    old = Ownerships(spine.store, "ns/clara-host-0", 30, clock)
    lease = await old.acquire("person:p_marcus")
    reborn = Ownerships(spine.store, "ns/clara-host-0", 30, clock)
    taken = await reborn.acquire("person:p_marcus")
    assert taken.epoch == lease.epoch + 1
    with pytest.raises(OwnershipLost):
        await old.renew(lease)
    with pytest.raises(OwnershipHeld):
        await Ownerships(spine.store, "ns/clara-host-1", 30, clock).acquire("person:p_marcus")


async def test_a_long_turn_keeps_its_lease_through_the_sweeper(spine, clock):
    gate = asyncio.Event()
    host = make_host(spine, "ns/clara-host-0", RecordingTurn(spine, gate=gate), clock, idle_s=60, ttl_s=30)
    turn = asyncio.ensure_future(host.submit(envelope("p_marcus", "long one")))
    await asyncio.sleep(0.05)
    first = host.persons["person:p_marcus"].lease
    for _ in range(8):  # 160 s of turn, far past one lease (90 s)
        clock.advance(20)
        await host.sweep_once()
    lease = host.persons["person:p_marcus"].lease
    assert lease.epoch == first.epoch and lease.expires_at > clock() + 5
    with pytest.raises(OwnershipHeld):
        await Ownerships(spine.store, "ns/clara-host-1", 30, clock).acquire("person:p_marcus")
    gate.set()
    await turn
    await settle(host)
