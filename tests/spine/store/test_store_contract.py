"""One contract, two backends: every test here runs on SQLite and on DynamoDB (moto server)."""
from __future__ import annotations

import asyncio
import math
from datetime import datetime

import pytest

from desk.portfolio.demo import seed
from spine.context import Channel
from spine.participants import resolve_participant
from spine.repo import Spine
from spine.roles import resolve_active_roles
from spine.store.base import ABSENT, ConditionFailed, Item, StoreError


def _item(pk: str, sk: str = "_", **data) -> Item:
    return Item(pk=pk, sk=sk, data=data)


async def test_get_of_a_missing_item_is_none(store):
    assert await store.get("NOPE") is None
    assert await store.get("NOPE", "ROLE#1") is None


async def test_put_then_get_returns_data_version_and_index_keys(store):
    written = await store.put(Item(pk="P#1", sk="A", data={"name": "Marcus"}, gsi1pk="G", gsi1sk="001"))
    assert written.version == 1
    got = await store.get("P#1", "A")
    assert got == Item(pk="P#1", sk="A", data={"name": "Marcus"}, version=1, gsi1pk="G", gsi1sk="001")
    assert await store.get("P#1") is None  # the default sk "_" is a different item


async def test_unconditional_put_overwrites_and_bumps_the_version(store):
    versions = [(await store.put(_item("P#1", n=n))).version for n in range(3)]
    assert versions == [1, 2, 3]
    got = await store.get("P#1")
    assert got.data == {"n": 2} and got.version == 3


async def test_overwrite_replaces_the_whole_data_not_merges_it(store):
    await store.put(_item("P#1", a=1, b=2))
    await store.put(_item("P#1", c=3))
    assert (await store.get("P#1")).data == {"c": 3}


async def test_delete_removes_only_that_item_and_tolerates_missing(store):
    await store.put(_item("P#1", "A", x=1))
    await store.put(_item("P#1", "B", x=2))
    await store.delete("P#1", "A")
    await store.delete("P#1", "A")  # deleting twice is not an error
    await store.delete("NEVER")
    assert await store.get("P#1", "A") is None
    assert (await store.get("P#1", "B")).data == {"x": 2}


async def test_a_deleted_item_can_be_created_again_from_version_one(store):
    await store.put(_item("P#1", x=1))
    await store.put(_item("P#1", x=2))
    await store.delete("P#1")
    again = await store.put(_item("P#1", x=3), expect_version=ABSENT)
    assert again.version == 1


async def _fill_person(store) -> None:
    for sk in ["ROLE#b", "CONTEXT", "ROLE#a", "ROLE#c", "PROSPECT#pf_yale"]:
        await store.put(_item("PERSON#1", sk, label=sk))
    await store.put(_item("PERSON#2", "ROLE#z", label="ROLE#z"))
    await store.put(_item("PERSON#10", "ROLE#y", label="ROLE#y"))  # pk prefix of PERSON#1 must not leak in


async def test_query_returns_one_partition_sorted_by_sk(store):
    await _fill_person(store)
    found = await store.query("PERSON#1")
    assert [i.sk for i in found] == ["CONTEXT", "PROSPECT#pf_yale", "ROLE#a", "ROLE#b", "ROLE#c"]
    assert all(i.pk == "PERSON#1" and i.version == 1 for i in found)


async def test_query_with_sk_prefix(store):
    await _fill_person(store)
    assert [i.sk for i in await store.query("PERSON#1", "ROLE#")] == ["ROLE#a", "ROLE#b", "ROLE#c"]
    assert [i.sk for i in await store.query("PERSON#1", "ROLE#b")] == ["ROLE#b"]
    assert await store.query("PERSON#1", "ZZZ") == []
    assert await store.query("PERSON#404") == []


async def test_query_descending_and_limit(store):
    await _fill_person(store)
    assert [i.sk for i in await store.query("PERSON#1", "ROLE#", descending=True)] == ["ROLE#c", "ROLE#b", "ROLE#a"]
    assert [i.sk for i in await store.query("PERSON#1", "ROLE#", limit=2)] == ["ROLE#a", "ROLE#b"]
    assert [i.sk for i in await store.query("PERSON#1", "ROLE#", limit=1, descending=True)] == ["ROLE#c"]
    assert len(await store.query("PERSON#1", limit=50)) == 5
    assert await store.query("PERSON#1", limit=0) == []


async def test_query_follows_pages_past_one_megabyte(store):
    # DynamoDB returns at most 1 MB per page; without a limit every page must be read.
    blob = "x" * 150_000
    for n in range(9):
        await store.put(_item("BIG", f"{n:02d}", blob=blob))
    found = await store.query("BIG")
    assert [i.sk for i in found] == [f"{n:02d}" for n in range(9)]
    assert [i.sk for i in await store.query("BIG", limit=8, descending=True)] == [f"{n:02d}" for n in range(8, 0, -1)]


async def test_sort_order_is_by_bytes_on_both_backends(store):
    for sk in ["b", "B", "a", "é", "_", "10", "9"]:
        await store.put(_item("ORD", sk))
    assert [i.sk for i in await store.query("ORD")] == sorted(["b", "B", "a", "é", "_", "10", "9"],
                                                              key=lambda s: s.encode())


async def test_query_index_is_sparse_and_sorted(store):
    await store.put(Item(pk="U#2", data={"n": "2"}, gsi1pk="PROPUNITS#y", gsi1sk="312"))
    await store.put(Item(pk="U#1", data={"n": "1"}, gsi1pk="PROPUNITS#y", gsi1sk="204"))
    await store.put(Item(pk="U#3", data={"n": "3"}, gsi1pk="PROPUNITS#c", gsi1sk="12"))
    await store.put(Item(pk="U#4", data={"n": "4"}))  # no index key: never in the index
    found = await store.query_index("PROPUNITS#y")
    assert [(i.pk, i.gsi1sk, i.data) for i in found] == [("U#1", "204", {"n": "1"}), ("U#2", "312", {"n": "2"})]
    assert [i.pk for i in await store.query_index("PROPUNITS#y", descending=True, limit=1)] == ["U#2"]
    assert [i.pk for i in await store.query_index("PROPUNITS#y", "3")] == ["U#2"]
    assert await store.query_index("PROPUNITS#nowhere") == []
    assert (await store.get("U#4")).gsi1pk is None


async def test_overwriting_without_index_keys_drops_the_item_from_the_index(store):
    await store.put(Item(pk="O#1", data={"status": "pending"}, gsi1pk="OUTBOX#pending", gsi1sk="t1"))
    assert [i.pk for i in await store.query_index("OUTBOX#pending")] == ["O#1"]
    await store.put(Item(pk="O#1", data={"status": "sent"}, gsi1pk="OUTBOX#sent", gsi1sk="t1"))
    assert await store.query_index("OUTBOX#pending") == []
    assert [i.pk for i in await store.query_index("OUTBOX#sent")] == ["O#1"]
    await store.put(Item(pk="O#1", data={"status": "gone"}))
    assert await store.query_index("OUTBOX#sent") == []
    got = await store.get("O#1")
    assert (got.gsi1pk, got.gsi1sk, got.version) == (None, None, 3)


async def test_index_query_with_limit_on_many_items(store):
    for n in range(12):
        await store.put(Item(pk=f"E#{n}", data={"n": n}, gsi1pk="EVENTS#x", gsi1sk=f"2026-11-20T16:{n:02d}"))
    newest = await store.query_index("EVENTS#x", descending=True, limit=5)
    assert [i.data["n"] for i in newest] == [11, 10, 9, 8, 7]
    assert len(await store.query_index("EVENTS#x")) == 12


async def test_create_if_absent_wins_once(store):
    first = await store.put(_item("ONCE#k", who="first"), expect_version=ABSENT)
    assert first.version == 1
    with pytest.raises(ConditionFailed):
        await store.put(_item("ONCE#k", who="second"), expect_version=ABSENT)
    got = await store.get("ONCE#k")
    assert got.data == {"who": "first"} and got.version == 1


async def test_compare_and_set_moves_the_version_and_rejects_a_stale_one(store):
    await store.put(_item("SEQ#wo", value=1), expect_version=ABSENT)
    second = await store.put(_item("SEQ#wo", value=2), expect_version=1)
    assert second.version == 2
    with pytest.raises(ConditionFailed):
        await store.put(_item("SEQ#wo", value=99), expect_version=1)  # stale read
    with pytest.raises(ConditionFailed):
        await store.put(_item("SEQ#wo", value=99), expect_version=5)  # from the future
    got = await store.get("SEQ#wo")
    assert got.data == {"value": 2} and got.version == 2
    third = await store.put(_item("SEQ#wo", value=3), expect_version=got.version)
    assert third.version == 3


async def test_compare_and_set_on_a_missing_item_fails(store):
    with pytest.raises(ConditionFailed):
        await store.put(_item("GHOST", x=1), expect_version=0)
    with pytest.raises(ConditionFailed):
        await store.put(_item("GHOST", x=1), expect_version=1)
    assert await store.get("GHOST") is None


async def test_versions_continue_across_unconditional_and_conditional_puts(store):
    assert (await store.put(_item("MIX", n=1))).version == 1
    assert (await store.put(_item("MIX", n=2), expect_version=1)).version == 2
    assert (await store.put(_item("MIX", n=3))).version == 3
    with pytest.raises(ConditionFailed):
        await store.put(_item("MIX", n=4), expect_version=ABSENT)
    assert (await store.put(_item("MIX", n=5), expect_version=3)).version == 4


async def test_compare_and_set_writes_index_keys_too(store):
    await store.put(Item(pk="L#1", data={}, gsi1pk="A", gsi1sk="1"), expect_version=ABSENT)
    await store.put(Item(pk="L#1", data={}, gsi1pk="B", gsi1sk="1"), expect_version=1)
    assert await store.query_index("A") == []
    assert [i.pk for i in await store.query_index("B")] == ["L#1"]


def _one_winner(results: list) -> tuple[Item, ConditionFailed]:
    wins = [r for r in results if isinstance(r, Item)]
    losses = [r for r in results if isinstance(r, ConditionFailed)]
    assert len(wins) == 1 and len(losses) == 1, results
    return wins[0], losses[0]


async def test_two_concurrent_compare_and_sets_from_one_read_exactly_one_wins(store):
    for round_ in range(5):
        pk = f"LEASE#{round_}"
        await store.put(_item(pk, owner="nobody"))
        read = await store.get(pk)
        results = await asyncio.gather(
            store.put(_item(pk, owner="host-a"), expect_version=read.version),
            store.put(_item(pk, owner="host-b"), expect_version=read.version),
            return_exceptions=True,
        )
        winner, _ = _one_winner(results)
        final = await store.get(pk)
        assert final.data == winner.data and final.version == read.version + 1 == winner.version


async def test_two_concurrent_creates_exactly_one_wins(store):
    for round_ in range(5):
        pk = f"CLAIM#phone#+1415555{round_:04d}"
        results = await asyncio.gather(
            store.put(_item(pk, person_id="p_a"), expect_version=ABSENT),
            store.put(_item(pk, person_id="p_b"), expect_version=ABSENT),
            return_exceptions=True,
        )
        winner, _ = _one_winner(results)
        assert (await store.get(pk)).data == winner.data


async def test_concurrent_sequence_increments_are_gap_free(store):
    spine = Spine(store)
    values = await asyncio.gather(*(spine.next_sequence("wo") for _ in range(8)))
    assert sorted(values) == list(range(1, 9))
    assert (await store.get("SEQ#wo")).data == {"value": 8}


NESTED = {
    "text": "Ünïcødé ☃ — 漢字 🚰",
    "none": None,
    "true": True,
    "int": -(2**53),
    "big": 2**63 - 1,
    "float": 0.1 + 0.2,
    "tiny": 5e-324,
    "inf": math.inf,
    "list": [1, "two", 3.5, None, [], {}, [{"deep": [{"deeper": ["x"]}]}]],
    "dict": {"a": {"b": {"c": [1, 2, {"d": None}]}}, "": "empty key"},
    "int_keys": {1: "one", 2: "two"},
    "bytes": b"\x00\xffraw",
    "empty": "",
}


async def test_msgpack_round_trip_of_nested_data(store):
    await store.put(_item("BLOB", **NESTED))
    got = (await store.get("BLOB")).data
    assert got == NESTED
    assert repr(got["float"]) == repr(0.1 + 0.2) and isinstance(got["int"], int)
    assert (await store.query("BLOB"))[0].data == NESTED


async def test_data_that_cannot_be_encoded_is_a_store_error_and_writes_nothing(store):
    with pytest.raises(StoreError, match="msgpack"):
        await store.put(_item("BAD", when=datetime(2026, 1, 1)))
    with pytest.raises(StoreError, match="msgpack"):
        await store.put(_item("BAD", n=2**70))
    assert await store.get("BAD") is None


async def test_empty_key_strings_are_refused_on_both_backends(store):
    # DynamoDB refuses them (moto only on some calls); SQLite must not quietly accept them.
    for keys in [{"pk": ""}, {"sk": ""}, {"gsi1pk": "G", "gsi1sk": ""}, {"gsi1pk": "", "gsi1sk": "1"}]:
        for expect_version in (None, ABSENT, 1):
            with pytest.raises(StoreError, match="empty key"):
                await store.put(Item(**{"pk": "K", "data": {"x": 1}, **keys}), expect_version=expect_version)
    assert await store.query("K") == []


async def test_spine_repository_end_to_end(store):
    spine = Spine(store)
    await seed(spine)
    assert await resolve_participant(spine, Channel.SMS, "(206) 555-1001") == "p_marcus"
    assert await resolve_participant(spine, Channel.VOICE, "+1 206-555-1088") == "p_marcus"  # merged old number
    assert await resolve_participant(spine, Channel.SMS, "+14155559876") is None
    roles = await resolve_active_roles(spine, "p_carlos", "pf_yale")
    assert sorted(r.role_type.value for r in roles) == ["tenant", "vendor_contact"]
    assert [r.role_type.value for r in await resolve_active_roles(spine, "p_carlos", "pf_capitol")] == ["vendor_contact"]
    assert [u.number for u in await spine.units_of("pf_yale")] == ["110", "204", "305", "312", "401", "415", "502"]
    assert {r.person_id for r in await spine.roles_scoped_to("UNITROLES#u_yale_204")} == {"p_marcus", "p_jordan", "p_ellen"}
    assert (await spine.current_lease("u_yale_204")).id == "l_yale_204"
    assert (await spine.property_for_number("+12065550100")).id == "pf_yale"
    assert {w.id for w in await spine.work_orders_at("pf_yale")} == {"wo_7", "wo_42"}
    unit_of = {w.id: w.unit_id for w in await spine.work_orders_at("pf_yale")}
    for wo_id, unit_id in unit_of.items():
        assert [w.id for w in await spine.work_orders_of_unit("pf_yale", unit_id)] == [wo_id]
    assert await spine.work_orders_of_unit("pf_yale", unit_of["wo_7"][:-1]) == []  # a unit id's prefix is not it
    assert await spine.next_sequence("work_order") == 801
    assert await spine.mark_once("turn#1") is True
    assert await spine.mark_once("turn#1") is False
    assert await spine.bind_once("token#1", "m1@x") == "m1@x"
    assert await spine.bind_once("token#1", "m1@x") == "m1@x"  # the same value again: still bound to it
    assert await spine.bind_once("token#1", "m2@x") == "m1@x"  # another: the first binder's value
    assert await spine.bind_once("turn#1", "m3@x") == ""       # a plain mark binds nothing


async def test_put_many_writes_every_item_with_its_index_keys_and_get_many_reads_them_back(store):
    await store.put(_item("P#0", n=0))  # overwritten by the batch: its version moves past 1
    items = [Item(pk=f"P#{n}", data={"n": n}, gsi1pk="G#many", gsi1sk=f"{n:04d}") for n in range(130)]
    await store.put_many(items + [Item(pk="P#5", data={"n": "last"}, gsi1pk="G#many", gsi1sk="0005")])
    assert [i.data["n"] for i in await store.query_index("G#many")][:6] == [0, 1, 2, 3, 4, "last"]
    found = await store.get_many([(f"P#{n}", "_") for n in range(0, 140, 7)] + [("P#7", "_")])
    assert sorted(int(pk[2:]) for pk, _ in found) == list(range(0, 130, 7))
    assert found[("P#0", "_")].version >= 1 and found[("P#0", "_")].data == {"n": 0}
    assert await store.get_many([]) == {}
    await store.put_many([])
