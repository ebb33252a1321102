"""`import_portfolio` on both stores: a first import creates, a second writes nothing, a changed row
updates only what changed, Carlos's case (one person, two roles) and one test per bad-row kind."""
from __future__ import annotations

from datetime import date

import pytest

from desk.portfolio.demo import seed
from desk.portfolio.files import FileKind
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.context import Channel
from spine.identity import OccupancyKind, PersonRoleType
from spine.participants import resolve_participant
from spine.repo import Spine
from spine.roles import resolve_active_roles
from spine.store.base import Item, Store
from spine.work import WorkOrderStatus
from tests.support.portfolio_helpers import line_of, sample_portfolio, write_portfolio

TODAY = date(2026, 12, 2)


class WriteCounting:
    """The store, counting every write that reaches it (an import's second run must make none)."""

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


async def _import(spine: Spine, folder, **options):
    return await import_portfolio(spine, folder, ImportOptions(**options), today=TODAY)


def _summary(result) -> dict[str, tuple[int, int, int, int, int]]:
    return {r.file: (r.created, r.updated, r.unchanged, r.ended, len(r.errors)) for r in result.report.files}


async def test_a_first_import_creates_and_a_second_writes_nothing(store, tmp_path):
    counting = WriteCounting(store)
    spine = Spine(counting)
    files = sample_portfolio()
    folder = write_portfolio(tmp_path / "pf", files)
    first = await _import(spine, folder)
    assert not first.report.failed and first.report.applied
    assert _summary(first)["people.csv"] == (6, 0, 0, 0, 0)
    assert _summary(first)["oncall.csv"] == (2, 0, 0, 0, 0)
    counting.writes = 0
    second = await _import(spine, folder)
    assert [line.split(": ", 1)[1].split(", ")[:2] for line in second.report.lines()] == \
        [["0 created", "0 updated"]] * len(files)
    assert counting.writes == 0 and second.writes == 0
    # the same ids: nothing duplicated
    assert [u.number for u in await spine.units_of("prop_pms_P1")] == ["101", "102"]
    assert await resolve_participant(spine, Channel.SMS, "+12065550710") == "p_pms_T1"


async def test_one_person_referenced_twice_gets_both_roles(store, tmp_path):
    spine = Spine(store)
    await _import(spine, write_portfolio(tmp_path / "pf", sample_portfolio()))
    dana = await resolve_participant(spine, Channel.SMS, "(206) 555-0712")
    assert dana == "p_pms_T3"
    roles = await resolve_active_roles(spine, dana, "prop_pms_P2")
    assert sorted(r.role_type.value for r in roles) == ["tenant", "vendor_contact"]
    # the vendor serves P1 as well, where Dana is not a tenant
    assert [r.role_type.value for r in await resolve_active_roles(spine, dana, "prop_pms_P1")] == ["vendor_contact"]
    assert await resolve_participant(spine, Channel.EMAIL, "rita@example.org") == "p_pms_G1"
    unit_roles = {r.person_id: r.scope.occupancy for r in await spine.roles_scoped_to("UNITROLES#u_pms_U101")}
    assert unit_roles == {"p_pms_T1": OccupancyKind.PRIMARY, "p_pms_T2": OccupancyKind.ROOMMATE,
                          "p_pms_G1": OccupancyKind.GUARANTOR}
    staff = {r.id: (r.role_type, r.scope.property_id) for r in await spine.roles_of("p_pms_S2")}
    assert staff == {"sr_pms_ST2@prop_pms_P1": (PersonRoleType.MAINTENANCE, "prop_pms_P1"),
                     "sr_pms_ST2@prop_pms_P2": (PersonRoleType.MAINTENANCE, "prop_pms_P2")}
    kim = await spine.roles_of("p_pms_S1")
    assert [(r.role_type, r.scope.org_id, r.scope.property_id) for r in kim] == [(PersonRoleType.PM, "org_pms_ORG1", None)]
    assert (await spine.property_for_number("+12065550700")).id == "prop_pms_P1"
    assert (await spine.property_for_email("lofts@northwind.example")).id == "prop_pms_P1"
    plan = await spine.get_oncall_plan("prop_pms_P1")
    assert plan.levels == [["p_pms_S2"], ["p_pms_S1"]] and (plan.ack_timeout_s, plan.repeats) == (120, 1)


async def test_a_changed_row_updates_only_what_changed(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    folder = write_portfolio(tmp_path / "pf", files)
    await _import(spine, folder)
    wo = await spine.get_work_order("wo_5001")
    await spine.put_work_order(wo.model_copy(update={"status": WorkOrderStatus.IN_PROGRESS, "eta": "3pm"}))
    files[FileKind.WORK_ORDERS][0]["brief"] = "leaky kitchen faucet"
    files[FileKind.UNITS][0]["rent_usd"] = "2500"
    files[FileKind.PEOPLE][0]["phone"] = "206-555-0719"  # Ava's new number
    result = await _import(spine, write_portfolio(folder, files))
    summary = _summary(result)
    assert summary["work_orders.csv"] == (0, 1, 1, 0, 0) and summary["units.csv"] == (0, 1, 3, 0, 0)
    assert summary["people.csv"] == (0, 1, 5, 0, 0) and summary["residents.csv"] == (0, 0, 4, 0, 0)
    wo = await spine.get_work_order("wo_5001")
    # what the gateway did since (in progress, an ETA) stays; the changed column changed
    assert (wo.brief, wo.status, wo.eta) == ("leaky kitchen faucet", WorkOrderStatus.IN_PROGRESS, "3pm")
    assert (await spine.get_unit("u_pms_U101")).monthly_rent_usd == 2500
    assert await resolve_participant(spine, Channel.SMS, "+12065550719") == "p_pms_T1"
    assert await resolve_participant(spine, Channel.SMS, "+12065550710") is None  # the old number is released


async def test_a_work_order_without_a_number_takes_the_next_one_and_keeps_it(store, tmp_path):
    spine = Spine(store)
    folder = write_portfolio(tmp_path / "pf", sample_portfolio())
    await _import(spine, folder)
    numbered = [w for w in await spine.work_orders_at("prop_pms_P2") if w.brief == "hallway light out"]
    assert [w.display_id for w in numbered] == ["WO-5002"]  # above every number the import named
    again = await _import(spine, folder)
    assert _summary(again)["work_orders.csv"] == (0, 0, 2, 0, 0)


def _good_rows_applied(result, file: str, created: int) -> None:
    assert result.report.applied
    assert _summary(result)[file][0] == created


BAD_ROWS = {
    # kind: (file, row to break, column, value, what the reason says)
    "bad phone": (FileKind.PEOPLE, "T2", "phone", "555-01", "not a valid phone number"),
    "bad date": (FileKind.RESIDENTS, "OCC2", "move_in", "02/01/2025", "is not a date (YYYY-MM-DD)"),
    "unknown reference": (FileKind.RESIDENTS, "OCC2", "unit", "U999", "unknown unit 'U999'"),
    "duplicate external id": (FileKind.UNITS, "U102", "external_id", "U101", "duplicate of line 2"),
    "phone held by another person": (FileKind.PEOPLE, "T2", "phone", "(206) 555-1001",
                                     "phone ending 1001 already belongs to Person p_marcus (Marcus Johnson), "
                                     "not to this row's p_pms_T2"),
    "phone of another row": (FileKind.PEOPLE, "T2", "phone", "206 555 0710",
                             "phone ending 0710 is also people.csv:2's (p_pms_T1)"),
    "unknown role": (FileKind.STAFF, "ST2", "role", "janitor", "unknown role 'janitor'"),
}


@pytest.mark.parametrize("case", sorted(BAD_ROWS))
async def test_a_bad_row_is_reported_by_file_and_line_and_the_good_rows_apply(store, tmp_path, case):
    spine = Spine(store)
    if case == "phone held by another person":
        await seed(spine)
    kind, external_id, column, value, reason = BAD_ROWS[case]
    files = sample_portfolio()
    line = line_of(files, kind, external_id)
    next(r for r in files[kind] if r["external_id"] == external_id)[column] = value
    result = await _import(spine, write_portfolio(tmp_path / "pf", files))
    errors = [str(e) for r in result.report.files for e in r.errors]
    assert errors[0].startswith(f"{kind.filename}:{line}: {column}: ") and reason in errors[0]
    # a row that needed the failed one fails too, naming it; nothing else fails
    # (an on-call row naming a staff member whose staff row failed fails too: they are no staff there)
    assert [e for e in errors[1:] if f"did not import ({kind.filename}:{line} failed)" not in e
            and not (kind == FileKind.STAFF and "is neither staff nor a vendor contact" in e)] == []
    _good_rows_applied(result, kind.filename, len(files[kind]) - 1)
    assert await resolve_participant(spine, Channel.SMS, "+12065550710") == "p_pms_T1"  # a good row, applied
    if kind == FileKind.PEOPLE:
        assert await spine.get_person("p_pms_T2") is None
        assert errors[1:] == [f"residents.csv:3: person: person 'T2' did not import (people.csv:{line} failed)"]
    if case == "phone held by another person":
        assert await resolve_participant(spine, Channel.SMS, "+12065551001") == "p_marcus"  # never merged


async def test_references_resolve_to_rows_imported_before_in_another_run(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    await _import(spine, write_portfolio(tmp_path / "pf", files))
    later = {FileKind.RESIDENTS: [{"external_id": "OCC9", "person": "S2", "unit": "U202", "kind": "primary"}]}
    result = await _import(spine, write_portfolio(tmp_path / "later", later))
    assert _summary(result) == {"residents.csv": (1, 0, 0, 0, 0)}
    role = next(r for r in await spine.roles_of("p_pms_S2") if r.role_type == PersonRoleType.TENANT)
    assert (role.scope.unit_id, role.scope.property_id, role.scope.org_id) == ("u_pms_U202", "prop_pms_P2", "org_pms_ORG1")
