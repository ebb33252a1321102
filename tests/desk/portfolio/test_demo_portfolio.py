"""The demo is a portfolio: `seed` imports the shipped folder (source `demo`, its external ids kept
as internal ids) and completes it; the import path sees the demo as any company's rows."""
from __future__ import annotations

import csv
from datetime import UTC, datetime

from desk.portfolio.demo import AT, DEMO_PORTFOLIO, DEMO_SOURCE, seed
from desk.portfolio.export import export_portfolio
from desk.portfolio.files import FileKind
from desk.portfolio.record import records_of
from desk.portfolio.run import ImportOptions, import_portfolio
from desk.portfolio.staged import StagedStore
from spine.identity import OccupancyKind, PersonRoleType
from spine.repo import Spine
from spine.roles import resolve_active_roles
from spine.store.base import Item, Store

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)


class WriteCounting:
    """The store, counting every write that reaches it."""

    def __init__(self, inner: Store) -> None:
        self.inner, self.writes = inner, 0

    def __getattr__(self, name):
        return getattr(self.inner, name)

    async def put(self, item: Item, *, expect_version=None) -> Item:
        self.writes += 1
        return await self.inner.put(item, expect_version=expect_version)

    async def put_many(self, items: list[Item]) -> None:
        self.writes += len(items)
        await self.inner.put_many(items)

    async def delete(self, pk: str, sk: str = "_") -> None:
        self.writes += 1
        await self.inner.delete(pk, sk)


def _rows(path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


async def test_seed_imports_the_folder_keeping_the_demo_ids(store):
    spine = Spine(store)
    await seed(spine, NOW)
    people = await records_of(store, DEMO_SOURCE, FileKind.PEOPLE.value)
    assert {r["external_id"] for r in _rows(DEMO_PORTFOLIO / "people.csv")} == set(people)
    assert {rec.internal_id for rec in people.values()} == set(people)  # p_marcus is p_marcus
    residents = await records_of(store, DEMO_SOURCE, FileKind.RESIDENTS.value)
    assert residents["tr_jordan_204"].internal_id == "tr_jordan_204"
    roles = await resolve_active_roles(spine, "p_jordan", "pf_yale")
    assert [(r.role_type, r.scope.unit_id, r.scope.occupancy) for r in roles] == [
        (PersonRoleType.TENANT, "u_yale_204", OccupancyKind.ROOMMATE)]
    # completed by what the CSV files cannot hold
    yale = await spine.get_property("pf_yale")
    assert yale is not None and yale.telegram_bot_id and yale.facility.pool_status is not None
    marcus = await spine.get_person("p_marcus")
    assert marcus is not None and marcus.created_at == AT


async def test_importing_the_folder_again_or_its_export_writes_nothing(store, tmp_path):
    await seed(Spine(store), NOW)
    counting = WriteCounting(store)
    options = ImportOptions(source=DEMO_SOURCE, keep_ids=True)
    again = await import_portfolio(Spine(counting), DEMO_PORTFOLIO, options, now=NOW)
    assert [(f.created, f.updated, f.errors) for f in again.report.files] == [(0, 0, [])] * len(again.report.files)
    await export_portfolio(store, tmp_path / "out", DEMO_SOURCE)
    exported = await import_portfolio(Spine(counting), tmp_path / "out", options, now=NOW)
    assert not exported.report.failed
    assert counting.writes == 0


async def test_a_staged_write_reaches_the_store_once_and_only_when_it_differs(store):
    staged = StagedStore(store)
    item = Item(pk="STAGED#1", sk="_", data={"n": 1})
    await staged.put(item)
    await staged.put(item.model_copy(update={"data": {"n": 2}}))
    assert await store.get("STAGED#1") is None and (await staged.get("STAGED#1")).data == {"n": 2}
    assert [i.data for i in await staged.query("STAGED#1")] == [{"n": 2}]
    assert await staged.commit() == 1
    assert (await store.get("STAGED#1")).version == 1
    again = StagedStore(store)
    await again.put(Item(pk="STAGED#1", sk="_", data={"n": 2}))
    assert await again.commit() == 0
    assert (await store.get("STAGED#1")).version == 1
