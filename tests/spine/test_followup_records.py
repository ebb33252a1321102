"""Follow-up records (spine/repo/followups.py), on SQLite and on DynamoDB (moto): written once,
changed only by compare-and-set, found due by one Query per shard of their status's index (the
most overdue first across shards, never a Scan), moved between status indexes when they change,
and found by their person. An item the unsharded index held is still found."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import spine.keys as keys
from spine.followup import Follows, FollowUp, FollowUpKind, FollowUpStatus
from spine.repo import Spine
from spine.store.base import Item, Store

T0 = datetime(2037, 12, 2, 17, tzinfo=UTC)


def _fu(n: int, minutes: int, person: str = "p_a") -> FollowUp:
    return FollowUp(id=f"wo_{n}-closeout-1", person_id=person, property_id="pf_x",
                    kind=FollowUpKind.WORK_ORDER_CLOSEOUT, due_at=T0 + timedelta(minutes=minutes),
                    follows=Follows.WORK_ORDER, follows_id=f"wo_{n}")


class Counting:
    def __init__(self, store: Store) -> None:
        self._store, self.index_reads = store, []

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def query_index(self, gsi1pk: str, sk_prefix: str = "", **kw):
        self.index_reads.append(gsi1pk)
        return await self._store.query_index(gsi1pk, sk_prefix, **kw)


async def test_a_follow_up_is_written_once_and_changed_only_at_its_version(store):
    spine = Spine(store)
    fu = _fu(1, 0)
    assert await spine.create_followup(fu)
    assert not await spine.create_followup(fu.model_copy(update={"due_at": T0 + timedelta(days=1)}))  # planned before
    read, version = await spine.read_followup(fu.id)
    assert read == fu
    sent = read.model_copy(update={"status": FollowUpStatus.SENT, "sent_at": T0})
    assert await spine.replace_followup(sent, version)
    assert not await spine.replace_followup(read.model_copy(update={"status": FollowUpStatus.STOPPED}), version)
    assert (await spine.read_followup(fu.id))[0].status == FollowUpStatus.SENT


async def test_due_ones_come_from_every_shard_most_overdue_first_one_query_each(store):
    counted = Counting(store)
    spine = Spine(counted)  # type: ignore[arg-type]
    planned = [_fu(n, minutes=(n * 7) % 40) for n in range(24)]  # due T0..T0+39 min, out of id order
    assert len({keys.followup_shard(f.id) for f in planned}) > 1  # spread over several partitions
    for fu in planned:
        assert await spine.create_followup(fu)
    counted.index_reads.clear()
    now = T0 + timedelta(minutes=20)
    due = await spine.due_followups(now)
    expected = sorted((f for f in planned if f.due_at <= now), key=lambda f: (f.due_at, f.id))
    assert [f.id for f, _ in due] == [f.id for f in expected]
    assert sorted(counted.index_reads) == sorted(keys.followups_with_status("pending", s)
                                                 for s in range(keys.FOLLOWUP_SHARDS))
    assert [f.id for f, _ in await spine.due_followups(now, limit=3)] == [f.id for f in expected[:3]]


async def test_a_sent_follow_up_leaves_the_pending_index_for_the_sent_one(store):
    spine = Spine(store)
    first, second = _fu(1, 0), _fu(2, 5)
    for fu in (first, second):
        await spine.create_followup(fu)
    [(read, version), _] = await spine.due_followups(T0 + timedelta(hours=1))
    assert read.id == first.id
    await spine.replace_followup(read.model_copy(update={"status": FollowUpStatus.SENT}), version)
    assert [f.id for f, _ in await spine.due_followups(T0 + timedelta(hours=1))] == [second.id]
    sent = await spine.due_followups(T0 + timedelta(hours=1), status=FollowUpStatus.SENT)
    assert [f.id for f, _ in sent] == [first.id]


async def test_one_written_to_the_unsharded_index_is_still_found_and_moves_to_its_shard(store):
    spine = Spine(store)
    old = next(_fu(n, 0) for n in range(100) if keys.followup_shard(_fu(n, 0).id) != 0)
    await store.put(Item(pk=keys.followup(old.id), data=old.model_dump(mode="json"), gsi1pk="FOLLOWUPS#pending",
                         gsi1sk=keys.followup_position(old.due_at, old.id)))  # as the index was spelled before
    [(found, version)] = await spine.due_followups(T0)
    assert found == old
    moved = found.model_copy(update={"due_at": T0 + timedelta(minutes=1)})
    assert await spine.replace_followup(moved, version)
    shard = keys.followups_with_status("pending", keys.followup_shard(old.id))
    assert [i.pk for i in await store.query_index(shard)] == [keys.followup(old.id)]
    assert await store.query_index("FOLLOWUPS#pending") == []


async def test_a_persons_follow_ups_are_theirs_oldest_due_first(store):
    spine = Spine(store)
    for fu in (_fu(1, 30), _fu(2, 10), _fu(3, 20, person="p_b")):
        await spine.create_followup(fu)
    assert [f.id for f, _ in await spine.followups_of_person("p_a")] == ["wo_2-closeout-1", "wo_1-closeout-1"]
    await store.delete(keys.followup("wo_2-closeout-1"))
    assert [f.id for f, _ in await spine.followups_of_person("p_a")] == ["wo_1-closeout-1"]
    assert [i.sk for i in await store.query(keys.followups_of("p_a"))] == ["wo_1-closeout-1"]  # trimmed on read
