"""PersonActor mailbox, warm state, idle deactivation and the durable inbound record, without Ray."""
from __future__ import annotations

import asyncio
import random

import pytest

from spine.context import PersonContext
from spine.records import InboundStatus
from tests.support.actor_helpers import RecordingRefresh, RecordingTurn, accept, envelope, make_host, settle


async def test_turns_of_one_person_run_one_at_a_time_in_arrival_order(spine, clock):
    turn = RecordingTurn(spine)

    async def jittery(deps, env, history, opening=None):
        turn.delay = random.uniform(0, 0.005)  # later messages often finish sooner if run in parallel
        return await turn(deps, env, history, opening)

    host = make_host(spine, "h0", jittery, clock)
    envs = [envelope("p_marcus", f"message {i}") for i in range(20)]
    results = await asyncio.gather(*(host.submit(e) for e in envs))
    assert turn.started == [e.message_id for e in envs]
    assert [r.reply for r in results] == [f"re: message {i}" for i in range(20)]
    assert turn.max_running_per_person == 1


async def test_different_persons_run_in_parallel(spine, clock):
    turn = RecordingTurn(spine, delay=0.2)
    host = make_host(spine, "h0", turn, clock)
    await asyncio.gather(host.submit(envelope("p_marcus", "a")), host.submit(envelope("p_jordan", "b")),
                         host.submit(envelope("p_carlos", "c")))
    assert turn.max_running_total == 3  # all three turns were running at once
    assert {i.person_id for i in host.actor_infos()} == {"p_marcus", "p_jordan", "p_carlos"}


async def test_activation_warms_roles_and_context_from_the_store(spine, clock):
    await spine.put_context(PersonContext(person_id="p_carlos", summary="Carlos asked about his renewal."))
    host = make_host(spine, "h0", RecordingTurn(spine), clock)
    await host.submit(envelope("p_carlos", "hi", property_id="pf_yale"))
    actor = host.persons["person:p_carlos"]
    assert sorted(r.role_type for r in actor.opening.roles) == ["tenant", "vendor_contact"]
    assert actor.opening.context.summary == "Carlos asked about his renewal."
    # At the other property only the vendor role applies (Carlos Plumbing services pf_capitol).
    await host.submit(envelope("p_carlos", "on site", property_id="pf_capitol"))
    assert [r.role_type for r in actor.opening.roles] == ["vendor_contact"]
    info = host.actor_infos()[0]
    assert (info.key, info.host, info.turns) == ("person:p_carlos", "h0", 2)


async def test_the_warm_transcript_is_bounded_and_given_to_each_turn_as_history(spine, clock):
    turn = RecordingTurn(spine)
    host = make_host(spine, "h0", turn, clock, transcript_turns=2)
    envs = [envelope("p_marcus", f"m{i}") for i in range(5)]
    for e in envs:
        await host.submit(e)
    assert turn.histories[envs[0].message_id] == []
    assert turn.histories[envs[4].message_id] == [
        {"role": "user", "content": "m2"}, {"role": "assistant", "content": "re: m2"},
        {"role": "user", "content": "m3"}, {"role": "assistant", "content": "re: m3"}]


async def test_idle_deactivation_ends_the_interaction_refreshes_and_releases(spine, clock):
    refresh = RecordingRefresh()
    host = make_host(spine, "h0", RecordingTurn(spine), clock, refresh=refresh, idle_s=60)
    first, last = envelope("p_marcus", "toilet running again"), envelope("p_marcus", "thanks")
    await host.submit(first)
    await host.submit(last)
    clock.advance(59)
    await host.sweep_once()
    await settle(host)
    assert refresh.calls == [] and "person:p_marcus" in host.persons
    clock.advance(2)
    await host.sweep_once()
    await settle(host)
    person, interaction, transcript = refresh.calls[0]
    assert (person, interaction) == ("p_marcus", last.interaction_id)
    assert [t.text for t in transcript] == ["toilet running again", "re: toilet running again",
                                                  "thanks", "re: thanks"]
    assert host.persons == {}
    lease = await host.runtime.ownerships.current("person:p_marcus")
    assert lease is not None and lease.owner == "" and lease.expires_at == 0


async def test_mail_behind_the_idle_check_keeps_the_actor_in_conversation(spine, clock):
    refresh = RecordingRefresh()
    host = make_host(spine, "h0", RecordingTurn(spine), clock, refresh=refresh, idle_s=60)
    await host.submit(envelope("p_marcus", "one"))
    clock.advance(61)
    actor = host.persons["person:p_marcus"]
    actor.post_idle_check()
    result = await host.submit(envelope("p_marcus", "two"))
    await settle(host)
    assert result.reply == "re: two"
    assert refresh.calls == [] and actor.active and actor.turns == 2


async def test_an_idle_actor_holds_no_task(spine, clock):
    host = make_host(spine, "h0", RecordingTurn(spine), clock)
    await host.ping()  # the host's one sweeper
    before = len(asyncio.all_tasks())
    await asyncio.gather(*(host.submit(envelope(None, "hi", from_address=f"+1415555{i:04d}")) for i in range(50)))
    await settle(host)
    assert len(host.persons) == 50
    assert len(asyncio.all_tasks()) == before


async def test_a_turn_that_ended_is_not_run_twice_on_retry(spine, clock):
    turn = RecordingTurn(spine)
    env = envelope("p_marcus", "is my toilet fixed?")
    await accept(spine, env)
    first = await make_host(spine, "h0", turn, clock).submit(env)
    # The host died after answering; Ray retries the task on its restarted self (same owner id).
    again = await make_host(spine, "h0", turn, clock).submit(env)
    assert turn.started == [env.message_id]
    assert (again.reply, again.interaction_id) == (first.reply, first.interaction_id)
    # The PersonActor never writes the inbound log: its one owner is the gateway (gateway.inbound_log).
    assert (await spine.get_inbound(env.message_id)).status == InboundStatus.ACCEPTED


async def test_a_failed_turn_fails_its_submitter_and_the_mailbox_goes_on(spine, clock):
    host = make_host(spine, "h0", RecordingTurn(spine, fail_on="boom"), clock)
    bad, good = envelope("p_marcus", "boom"), envelope("p_marcus", "still there?")
    outcomes = await asyncio.gather(host.submit(bad), host.submit(good), return_exceptions=True)
    assert isinstance(outcomes[0], RuntimeError)
    assert outcomes[1].reply == "re: still there?"


async def test_host_bytes_interface_answers_ok_moved_and_failed(spine, clock):
    from actors.protocol.host import HostFailed, HostMoved, TurnAnswered, read_host_reply

    a = make_host(spine, "pool/clara-host-0", RecordingTurn(spine), clock)
    b = make_host(spine, "pool/clara-host-1", RecordingTurn(spine), clock)
    env = envelope("p_marcus", "hello")
    ok = read_host_reply(await a.handle(env.to_bytes()))
    assert isinstance(ok, TurnAnswered) and ok.result.reply == "re: hello"
    moved = read_host_reply(await b.handle(envelope("p_marcus", "again").to_bytes()))
    assert isinstance(moved, HostMoved) and moved.owner == "pool/clara-host-0"
    bad = read_host_reply(await a.handle(b"\x92not an envelope"))
    assert isinstance(bad, HostFailed) and "bad envelope" in bad.error


async def test_a_store_outage_at_activation_fails_the_message_not_the_host(tmp_path, clock):
    from spine.repo import Spine
    from spine.store.base import StoreUnavailable

    class DownStore:
        timeout_s = 0.1

        async def get(self, pk, sk="_"):
            raise StoreUnavailable("store down")

        put = query = query_index = get

    host = make_host(Spine(DownStore()), "h0", RecordingTurn(None), clock)
    with pytest.raises(StoreUnavailable):
        await host.submit(envelope("p_marcus", "hello?"))
    assert host.persons == {}
    with pytest.raises(StoreUnavailable):  # the host still answers the next one, as clearly
        await host.submit(envelope("p_marcus", "hello?"))


async def test_a_warm_person_actor_stays_far_below_100_kb(spine, clock):
    """Roles, a realistic personContext and a transcript exchange, measured by tracemalloc."""
    import gc
    import tracemalloc

    from spine.identity import Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope

    n = 200
    summary = "Tenant of 204; reported a running toilet (WO-7), asked for an ETA, renewal pending. " * 8
    for i in range(n):
        pid = f"p_mem_{i}"
        await spine.put_person(Person(id=pid, display_name=pid))
        await spine.put_role(PersonRole(id=f"r_{pid}", person_id=pid, role_type=PersonRoleType.TENANT,
                                        source=PersonRoleSource.PMS_SYNC, scope=RoleScope(unit_id="u_yale_204")))
        await spine.put_context(PersonContext(person_id=pid, summary=summary))
    host = make_host(spine, "h0", RecordingTurn(spine), clock)
    envs = [envelope(f"p_mem_{i}", "the toilet in 204 is running again, can someone come today? " * 2,
                     from_address=f"+1206555{i:04d}") for i in range(n)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for env in envs:
        await host.submit(env)
    gc.collect()
    per_actor = (tracemalloc.get_traced_memory()[0] - before) / n
    tracemalloc.stop()
    assert all(a.active and a.opening.roles and a.opening.context and a.transcript for a in host.persons.values())
    assert per_actor < 100 * 1024, f"{per_actor / 1024:.1f} KB per warm PersonActor"
