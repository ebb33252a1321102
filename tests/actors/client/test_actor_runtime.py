"""The actor runtime in a real (private) Ray: ordering, host death, leases across pools, rehydration.

The tests share one store and one two-host pool (plus a few pools of their own), so each talks
to its own people: a person warm in one pool is owned there, and another pool would be sent to it.
"""
from __future__ import annotations

import asyncio
import itertools
import uuid

import pytest
import ray

from actors.client.pool import HostPool, TurnFailed
from actors.config import RuntimeConfig
from actors.protocol.keys import host_index, placement_key
from desk.portfolio.demo import seed
from spine.identity import PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.records import InboundMessage
from spine.repo import Spine
from spine.store.sqlite import SqliteStore
from tests.support.actor_helpers import PHONES

pytestmark = pytest.mark.ray("actors")

RECORDED = "tests.support.turn_helpers:recorded_turn"
_ids = itertools.count(1)


def message(person_id: str, body: str, property_id: str = "pf_yale"):
    from spine.envelope import MessageEnvelope

    n = next(_ids)
    return MessageEnvelope(message_id=f"SMray{uuid.uuid4().hex[:8]}{n}", interaction_id=f"ix_ray_{uuid.uuid4().hex[:12]}",
                           channel="sms", from_address=PHONES[person_id], to_address="+12065550100", body=body,
                           property_id=property_id, participant_id=person_id)


def placed_host(pool: HostPool, env):
    """The host the pool's current layout names for the envelope's person (actors.client.placement's rule)."""
    return pool.hosts[host_index(placement_key(env), len(pool.hosts))]


async def accepted(spine: Spine, env) -> None:
    await spine.accept_inbound(InboundMessage(id=env.message_id, channel=env.channel, from_address=env.from_address,
                                              to_address=env.to_address, body=env.body))


@pytest.fixture(scope="module")
async def store_url(tmp_path_factory):
    path = tmp_path_factory.mktemp("ray-runtime") / "clara.db"
    spine = Spine(SqliteStore(path))
    await seed(spine)
    await spine.store.close()
    return f"sqlite:///{path}"


@pytest.fixture(scope="module")
async def runtime(ray_session, store_url):
    """Start pools on the module's store; every pool started here is killed at teardown."""
    pools: list[HostPool] = []

    async def start(namespace: str | None = None, **overrides) -> HostPool:
        fields = dict(hosts=2, host_num_cpus=0.1, dispatcher_num_cpus=0.1, detached=False, model="offline",
                      turn_function=RECORDED, idle_deactivate_s=2.0, lease_ttl_s=10.0)
        config = RuntimeConfig(store_url=store_url, namespace=namespace or f"t-{uuid.uuid4().hex[:8]}",
                               **{**fields, **overrides})
        pool = await HostPool.start(config)
        pools.append(pool)
        return pool

    yield start
    for pool in pools:  # the reconciler first: it would replace the hosts
        for handle in [pool.reconciler, *pool.hosts]:
            ray.kill(handle, no_restart=True)
        try:
            ray.kill(pool.dispatcher, no_restart=True)
        except ValueError:
            pass  # two pools of one namespace share it


@pytest.fixture(scope="module")
async def pool(runtime) -> HostPool:
    """One two-host pool shared by the tests below; each test talks to its own people."""
    return await runtime()


@pytest.fixture(scope="module")
async def real_pool(runtime) -> HostPool:
    """A pool running real turns (run_interaction on the offline model, tools via the
    DispatcherActor), shared by the tests below that need them; each talks as its own person."""
    return await runtime(turn_function=None, idle_deactivate_s=1.0)


async def restart(host) -> None:
    """Kill a host and wait until it is back as a new process: restarted by Ray, or replaced
    under its name by the reconciler when Ray's restart is slow."""
    old = await host.pid.remote()
    namespace, _, name = (await host.ping.remote()).partition("/")
    ray.kill(host, no_restart=False)
    for _ in range(300):
        try:
            if await ray.get_actor(name, namespace=namespace).pid.remote() != old:
                return
        except (ValueError, ray.exceptions.RayActorError):
            pass
        await asyncio.sleep(0.1)
    raise AssertionError("host did not come back")


async def dead(host) -> None:
    """Wait until a host killed for good is gone: ray.kill only asks Ray to kill it."""
    async with asyncio.timeout(60):
        while True:
            try:
                await host.pid.remote()
            except ray.exceptions.RayActorError:
                return
            await asyncio.sleep(0.1)


async def runs_of(spine: Spine, person_id: str) -> list[dict]:
    return [dict(i.data, message_id=i.sk) for i in await spine.store.query(f"TESTRUN#{person_id}")]


async def test_twenty_messages_from_one_person_are_answered_in_order(pool):
    envs = [message("p_jordan", f"message {i}") for i in range(20)]
    results = await asyncio.gather(*(pool.submit(e) for e in envs))
    assert [r.reply for r in results] == [f"re: message {i}" for i in range(20)]
    runs = sorted(await runs_of(pool.spine, "p_jordan"), key=lambda r: r["start"])
    assert [r["message_id"] for r in runs] == [e.message_id for e in envs]
    assert all(a["end"] <= b["start"] for a, b in itertools.pairwise(runs))  # one at a time
    assert len({r["pid"] for r in runs}) == 1


async def test_a_killed_host_loses_no_accepted_message(pool):
    people = ["p_ellen", "p_mike", "p_priya"]
    envs = [message(p, f"{p} {i} sleep=0.2") for i in range(4) for p in people]
    for env in envs:
        await accepted(pool.spine, env)
    submitted = [asyncio.ensure_future(pool.submit(e)) for e in envs]
    async with asyncio.timeout(60):  # kill mid-stream, once the victim has served one of them (a busy machine is slow)
        while not await runs_of(pool.spine, people[0]):
            await asyncio.sleep(0.05)
    victim = placed_host(pool, envs[0])
    victims = [p for p in people if placed_host(pool, message(p, "x")) is victim]  # before the layout can change
    ray.kill(victim, no_restart=False)  # Ray restarts it (or the reconciler replaces it); in-flight turns are retried
    outcomes = await asyncio.gather(*submitted, return_exceptions=True)
    for env, outcome in zip(envs, outcomes, strict=True):  # a reply, or TurnFailed (the gateway records it and apologises)
        assert isinstance(outcome, TurnFailed) or outcome.reply == f"re: {env.body}"
    answered = sum(not isinstance(o, BaseException) for o in outcomes)
    assert answered >= len(envs) - 4  # at most the victim's in-flight turns could fail
    after = await pool.submit(message(people[0], "still there?"))
    assert after.reply == "re: still there?"
    pids = {r["pid"] for p in victims for r in await runs_of(pool.spine, p)}
    # the victim's people were served before the kill and after it: by the restarted process, or by
    # the other host if the reconciler took the victim out of the layout meanwhile (a busy machine)
    assert len(pids) >= 2


async def test_the_same_person_never_runs_on_two_hosts_of_two_pools(runtime):
    first = await runtime(hosts=1)
    second = await runtime(hosts=1)
    envs = [message("p_ruth", f"m{i} sleep=0.05") for i in range(12)]
    pools = [first, second] * 6
    results = await asyncio.gather(*(p.submit(e) for p, e in zip(pools, envs, strict=True)))
    assert sorted(r.reply for r in results) == sorted(f"re: {e.body}" for e in envs)
    runs = sorted(await runs_of(first.spine, "p_ruth"), key=lambda r: r["start"])
    assert len(runs) == 12
    assert len({r["pid"] for r in runs}) == 1  # the lease owner ran them all
    assert all(a["end"] <= b["start"] for a, b in itertools.pairwise(runs))
    listed = await first.actors() + await second.actors()
    assert [i.key for i in listed] == ["person:p_ruth"]


async def test_a_resized_pool_forwards_to_the_current_owner(runtime):
    namespace = f"t-{uuid.uuid4().hex[:8]}"
    small = await runtime(namespace, hosts=1, idle_deactivate_s=300)
    await small.submit(message("p_carlos", "before the resize"))
    big = await runtime(namespace, hosts=3, idle_deactivate_s=300)  # same named hosts, plus two
    env = message("p_carlos", "after the resize")
    assert placed_host(big, env) is not big.hosts[0] or pytest.skip("p_carlos still hashes to host 0")
    assert (await big.submit(env)).reply == "re: after the resize"
    [info] = [i for i in await big.actors() if i.key == "person:p_carlos"]
    assert (info.key, info.host, info.turns) == ("person:p_carlos", f"{namespace}/clara-host-0", 2)


async def test_a_restarted_host_rehydrates_from_the_store(pool):
    await pool.submit(message("p_lena", "hi"))
    [before] = [i for i in await pool.actors() if i.key == "person:p_lena"]
    assert before.roles == ["leasing_agent"] and before.turns == 1
    await pool.spine.put_role(PersonRole(id="r_lena_viewer", person_id="p_lena", role_type=PersonRoleType.VIEWER,
                                         source=PersonRoleSource.MANUAL_PM, scope=RoleScope(org_id="org_propflow")))
    await restart(placed_host(pool, message("p_lena", "x")))
    assert (await pool.submit(message("p_lena", "are you back?"))).reply == "re: are you back?"
    [after] = [i for i in await pool.actors() if i.key == "person:p_lena"]
    assert sorted(after.roles) == ["leasing_agent", "viewer"]  # re-read, not remembered
    assert after.turns == 1 and after.lease_epoch == before.lease_epoch + 1
    runs = await runs_of(pool.spine, "p_lena")
    assert sorted(r["history"] for r in runs) == [0, 0]  # the warm transcript died with the process


async def test_idle_persons_deactivate_and_release_their_leases(pool):
    await pool.submit(message("p_sam", "hello"))
    assert "person:p_sam" in [i.key for i in await pool.actors()]
    for _ in range(60):
        await asyncio.sleep(0.1)
        if "person:p_sam" not in [i.key for i in await pool.actors()]:
            break
    assert "person:p_sam" not in [i.key for i in await pool.actors()]
    lease = await pool.spine.store.get("OWNER#person:p_sam")
    assert lease.data["owner"] == "" and lease.data["expires_at"] == 0


async def test_real_turns_through_the_dispatcher_actor_then_refresh_on_deactivation(real_pool):
    """run_interaction on the offline model, tools via the DispatcherActor, in order; then the idle
    deactivation ends the interaction and writes the personContext."""
    real = real_pool
    questions = ["what are the pool hours?", "what's my balance?"]
    envs = [message("p_marcus", questions[i % 2]) for i in range(20)]
    for env in envs:
        await accepted(real.spine, env)
    results = await asyncio.gather(*(real.submit(e) for e in envs))
    for env, result in zip(envs, results, strict=True):
        tool = "get_pool_status" if "pool" in env.body else "get_balance"
        assert [(c.name, c.decision) for c in result.trace.tool_calls] == [(tool, "allowed")]
        assert result.reply and ("pool" in result.reply.lower()) == ("pool" in env.body)
        assert await real.spine.get_trace(env.interaction_id) is not None
        assert result.trace.store_reads  # the trace counts the turn's store reads
    for _ in range(60):
        context = await real.spine.get_context("p_marcus")
        if context is not None and context.refreshed_at is not None:
            break
        await asyncio.sleep(0.1)
    assert context.active.last_interaction_id == envs[-1].interaction_id


async def test_a_lost_hosts_people_are_served_by_another_host_at_once(runtime):
    """Killed for good, the host leaves the layout and its lease owner id is revoked: its person's
    next message is served by the other host, without waiting out the lease or a new process."""
    # Silent 3 s is lost: well inside the 10 s lease, and not a live host that a busy machine
    # (the suite's other workers) kept from answering a ping for a second.
    pool = await runtime(hosts=2, host_dead_after_s=3.0, host_health_check_s=0.25, idle_deactivate_s=300)
    survivor_host, doomed_host = pool.hosts  # as placed now: a later layout read may name others
    person = next(p for p in ("p_marcus", "p_jordan", "p_ellen", "p_mike", "p_carlos")
                  if placed_host(pool, message(p, "x")) is doomed_host)
    await pool.submit(message(person, "before"))
    lost_pid = await doomed_host.pid.remote()
    survivor = await survivor_host.pid.remote()
    ray.kill(doomed_host, no_restart=True)
    await dead(doomed_host)
    assert (await pool.submit(message(person, "after"))).reply == "re: after"
    runs = sorted(await runs_of(pool.spine, person), key=lambda r: r["start"])
    assert [r["pid"] for r in runs[-2:]] == [lost_pid, survivor]
    lease = await pool.spine.store.get(f"OWNER#person:{person}")
    assert lease.data["owner"].startswith(f"{pool.config.namespace}/clara-host-0")


async def test_a_host_gone_for_good_is_replaced_and_its_accepted_messages_are_answered(runtime):
    """The reconciler replaces a host killed for good (no Ray restart) under its own name; the
    new process takes the dead one's leases at once, so its people wait seconds, not a lease."""
    doomed = await runtime(hosts=1, host_dead_after_s=3.0, host_health_check_s=0.25)
    envs = [message("p_priya", f"m{i} sleep={0 if i == 0 else 1}") for i in range(3)]
    for env in envs:
        await accepted(doomed.spine, env)
    submitted = [asyncio.ensure_future(doomed.submit(e)) for e in envs]
    async with asyncio.timeout(60):  # kill once the first turn has run there: a busy machine is slow to start it
        while not await runs_of(doomed.spine, "p_priya"):
            await asyncio.sleep(0.05)
    ray.kill(doomed.hosts[0], no_restart=True)  # how soon its people are served again: bench/resize.py
    outcomes = await asyncio.gather(*submitted)
    assert [o.reply for o in outcomes] == [f"re: {e.body}" for e in envs]
    runs = await runs_of(doomed.spine, "p_priya")
    assert len({r["pid"] for r in runs}) == 2  # the first turn ran on the dead process, then its successor


async def test_a_first_turn_gets_its_authority_and_lookups_from_the_dispatcher_actor_in_one_call(real_pool):
    """begin_turn across Ray (a streaming call): the authority first, the lookups' statuses after
    (the trace's prefetch report, with a hit for any call served from one), and the turn made
    1 + N round trips (2 + N when the authority and the lookups went separately)."""
    from spine.identity import Person, PersonRole, PersonRoleSource, PersonRoleType, RoleScope

    real = real_pool
    # A vendor contact of Carlos's company no other test here talks as (their leases are the module store's).
    await real.spine.put_person(Person(id="p_ray_vendor", display_name="Rita Reyes"))
    await real.spine.put_role(PersonRole(id="vr_ray_vendor", person_id="p_ray_vendor", role_type=PersonRoleType.VENDOR_CONTACT,
                                         source=PersonRoleSource.MANUAL_PM, scope=RoleScope(vendor_id="v_carlos")))
    env = message("p_carlos", "check on WO-42").model_copy(update={"participant_id": "p_ray_vendor",
                                                                  "from_address": "+13035550199"})
    await accepted(real.spine, env)
    trace = (await real.submit(env)).trace
    assert trace.prefetch and {p.input.get("work_order_id") for p in trace.prefetch} == {"WO-42"}
    assert all(p.status == "hit" for p in trace.prefetch if any(c.prefetched and c.name == p.name
                                                                 for c in trace.tool_calls))
    assert trace.dispatcher_round_trips == 1 + len(trace.tool_calls)
