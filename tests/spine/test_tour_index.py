"""The per-property tour index (spine/repo/tours.py), on SQLite and on DynamoDB: a tour is found
by its property and its local day with prefix reads of the index, moves when rescheduled, and a
day is the property's day, not UTC's."""
from __future__ import annotations

from datetime import UTC, date, datetime

from desk.portfolio.demo import PROPERTIES
from spine.repo import Spine
from spine.store.base import Item, Store
from spine.work import Tour

YALE = next(p for p in PROPERTIES if p.id == "pf_yale")  # America/Los_Angeles


class Recording:
    """Delegates to a store and records every read it was asked for."""

    def __init__(self, store: Store) -> None:
        self._store, self.reads = store, []

    def __getattr__(self, name):
        return getattr(self._store, name)

    async def get(self, pk: str, sk: str = "_") -> Item | None:
        self.reads.append(("get", pk, sk))
        return await self._store.get(pk, sk)

    async def query(self, pk: str, sk_prefix: str = "", **kw) -> list[Item]:
        self.reads.append(("query", pk, sk_prefix))
        return await self._store.query(pk, sk_prefix, **kw)

    async def query_index(self, gsi1pk: str, sk_prefix: str = "", **kw) -> list[Item]:
        self.reads.append(("query_index", gsi1pk, sk_prefix))
        return await self._store.query_index(gsi1pk, sk_prefix, **kw)


def _tour(tour_id: str, at: str, property_id: str = "pf_yale", person: str = "p_tess") -> Tour:
    return Tour(id=tour_id, prospect_person_id=person, property_id=property_id, scheduled_at=datetime.fromisoformat(at))


async def test_tours_are_found_per_property_and_local_day(store):
    spine = Spine(store)
    await spine.put_property(YALE)
    late = _tour("t_late", "2031-01-10T23:30:00-08:00")  # 07:30 UTC on the 11th: still the 10th in Seattle
    for tour in (_tour("t_noon", "2031-01-10T12:00:00-08:00"), late, _tour("t_next", "2031-01-11T09:00:00Z"),
                 _tour("t_elsewhere", "2031-01-10T12:00:00-08:00", property_id="pf_beacon")):
        await spine.put_tour(tour)
    assert [t.id for t in await spine.tours_at("pf_yale", date(2031, 1, 10))] == ["t_noon", "t_late"]
    assert [t.id for t in await spine.tours_at("pf_yale", date(2031, 1, 11))] == ["t_next"]  # 01:00 local
    assert [t.id for t in await spine.tours_at("pf_yale", date(2031, 1, 9), days=3)] == ["t_noon", "t_late", "t_next"]
    assert await spine.tours_at("pf_yale", date(2031, 1, 12)) == []
    assert [t.id for t in await spine.tours_at("pf_beacon", date(2031, 1, 10))] == ["t_elsewhere"]
    assert {t.id for t in await spine.tours_of("p_tess")} == {"t_noon", "t_late", "t_next", "t_elsewhere"}


async def test_a_rescheduled_tour_leaves_its_old_day(store):
    spine = Spine(store)
    await spine.put_property(YALE)
    await spine.put_tour(_tour("t_moved", "2031-01-10T12:00:00-08:00"))
    await spine.put_tour(_tour("t_moved", "2031-01-14T10:00:00-08:00"))
    assert await spine.tours_at("pf_yale", date(2031, 1, 10)) == []
    [moved] = await spine.tours_at("pf_yale", date(2031, 1, 14))
    assert moved.scheduled_at == datetime(2031, 1, 14, 18, 0, tzinfo=UTC)
    assert (await spine.get_tour("t_moved")).scheduled_at == moved.scheduled_at


async def test_a_day_is_prefix_reads_of_one_partition_never_a_scan(store):
    recording = Recording(store)
    spine = Spine(recording)
    await spine.put_property(YALE)
    await spine.put_tour(_tour("t_1", "2031-01-10T12:00:00-08:00"))
    recording.reads.clear()
    await spine.tours_at("pf_yale", date(2031, 1, 10), days=2)
    assert sorted(recording.reads) == [("query", "PROPTOURS#pf_yale", "2031-01-10T"),
                                       ("query", "PROPTOURS#pf_yale", "2031-01-11T")]
