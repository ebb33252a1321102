"""--dry-run, --strict, --sync, a missing column and the export round trip, on both stores."""
from __future__ import annotations

from datetime import date

from desk.portfolio.export import export_portfolio
from desk.portfolio.files import FileKind
from desk.portfolio.record import records_of
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.context import Channel
from spine.participants import resolve_participant
from spine.repo import Spine
from spine.roles import resolve_active_roles
from tests.support.portfolio_helpers import sample_portfolio, write_portfolio

TODAY = date(2026, 12, 2)


async def _import(spine: Spine, folder, **options):
    return await import_portfolio(spine, folder, ImportOptions(**options), today=TODAY)


def _summary(result) -> dict[str, tuple[int, int, int, int, int]]:
    return {r.file: (r.created, r.updated, r.unchanged, r.ended, len(r.errors)) for r in result.report.files}


async def test_dry_run_writes_nothing_and_says_what_would_change(store, tmp_path):
    spine = Spine(store)
    folder = write_portfolio(tmp_path / "pf", sample_portfolio())
    dry = await _import(spine, folder, dry_run=True)
    assert not dry.report.applied and dry.writes > 0
    assert await records_of(store, "pms", "people") == {}
    assert await spine.get_person("p_pms_T1") is None and await spine.get_oncall_plan("prop_pms_P1") is None
    real = await _import(spine, folder)
    assert _summary(real) == _summary(dry)


async def test_strict_applies_nothing_when_a_row_fails(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    files[FileKind.UNITS][3]["bedrooms"] = "two"
    folder = write_portfolio(tmp_path / "pf", files)
    strict = await _import(spine, folder, strict=True)
    assert strict.report.failed and not strict.report.applied
    assert [str(e) for r in strict.report.files for e in r.errors] == [
        "units.csv:5: bedrooms: 'two' is not a whole number"]
    assert await spine.get_unit("u_pms_U101") is None and await spine.get_person("p_pms_T1") is None
    lenient = await _import(spine, folder)
    assert lenient.report.applied and (await spine.get_unit("u_pms_U101")).bedrooms == 2


async def test_a_missing_required_column_is_one_line_naming_it(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    for row in files[FileKind.UNITS]:
        del row["rent_usd"]
        row["color"] = "blue"  # an unknown column is ignored
    result = await _import(spine, write_portfolio(tmp_path / "pf", files))
    units = next(r for r in result.report.files if r.file == "units.csv")
    assert [str(e) for e in units.errors] == ["units.csv:1: rent_usd: required column is missing"]
    assert (await spine.get_person("p_pms_T1")) is not None  # the other files apply


async def test_export_then_import_the_export_changes_nothing(store, tmp_path):
    spine = Spine(store)
    await _import(spine, write_portfolio(tmp_path / "pf", sample_portfolio()))
    written = await export_portfolio(store, tmp_path / "out")
    assert written[FileKind.PEOPLE] == 6 and written[FileKind.ONCALL] == 2
    people = (tmp_path / "out" / "people.csv").read_text().splitlines()
    assert people[0] == "external_id,first_name,last_name,phone,email,language,deceased"
    assert "T1,Ava,Stone,'+12065550710,ava@example.com,en," in people  # normalised, and escaped (issue 40 item 11)
    again = await _import(spine, tmp_path / "out", sync=True)
    assert {counts[:2] + counts[3:] for counts in _summary(again).values()} == {(0, 0, 0, 0)}
    assert "WO-5002" in (tmp_path / "out" / "work_orders.csv").read_text()


async def test_sync_ends_what_the_source_no_longer_lists_and_deletes_nothing(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    folder = write_portfolio(tmp_path / "pf", files)
    await _import(spine, folder)
    files[FileKind.RESIDENTS] = [r for r in files[FileKind.RESIDENTS] if r["external_id"] != "OCC2"]  # Ben moved out
    files[FileKind.RESIDENTS][0]["move_out"] = "2026-11-30"  # Ava's move-out date has passed
    files[FileKind.STAFF][1]["properties"] = "P1"  # Lee no longer covers P2
    files[FileKind.VENDOR_CONTACTS] = []
    files[FileKind.UNITS] = [r for r in files[FileKind.UNITS] if r["external_id"] != "U102"]
    files[FileKind.ONCALL] = files[FileKind.ONCALL][:1]
    write_portfolio(folder, files)
    without_sync = await _import(spine, folder)
    assert _summary(without_sync)["residents.csv"] == (0, 0, 2, 1, 0)  # only the past move-out ends
    assert _summary(without_sync)["staff.csv"] == (0, 1, 1, 0, 0)  # a changed row, sync or not
    assert (await spine.get_unit("u_pms_U102")).active
    synced = await _import(spine, folder, sync=True)
    summary = _summary(synced)
    assert summary["residents.csv"] == (0, 0, 3, 1, 0) and summary["vendor_contacts.csv"] == (0, 0, 0, 1, 0)
    assert summary["units.csv"] == (0, 0, 3, 1, 0) and summary["staff.csv"] == (0, 0, 2, 0, 0)
    assert summary["oncall.csv"] == (0, 0, 1, 1, 0)
    assert await spine.roles_of("p_pms_T2") == [] and await spine.roles_of("p_pms_T1") == []
    assert await resolve_participant(spine, Channel.SMS, "+12065550711") == "p_pms_T2"  # the person stays
    assert [r.role_type.value for r in await resolve_active_roles(spine, "p_pms_T3", "prop_pms_P2")] == ["tenant"]
    assert [r.scope.property_id for r in await spine.roles_of("p_pms_S2")] == ["prop_pms_P1"]
    ended = await store.query("PERSON#p_pms_T2", "ROLE#")
    assert [(i.data["id"], i.data["active"]) for i in ended] == [("tr_pms_OCC2", False)]  # kept, not deleted
    unit = await spine.get_unit("u_pms_U102")
    assert unit is not None and not unit.active and not unit.available
    assert (await spine.get_oncall_plan("prop_pms_P1")).levels == [["p_pms_S2"]]
    assert _summary(await _import(spine, folder, sync=True))["residents.csv"] == (0, 0, 3, 0, 0)


async def test_progress_is_reported_per_file_up_to_its_row_count(store, tmp_path):
    seen: dict[FileKind, list[tuple[int, int]]] = {}
    files = sample_portfolio()
    await import_portfolio(Spine(store), write_portfolio(tmp_path / "pf", files), today=TODAY,
                           progress=lambda kind, done, total: seen.setdefault(kind, []).append((done, total)))
    assert {kind: calls[-1] for kind, calls in seen.items()} == {kind: (len(rows), len(rows)) for kind, rows in files.items()}
    assert all(calls[0][0] == 0 for calls in seen.values())


async def test_a_changed_oncall_row_rewrites_its_propertys_plan_from_all_its_rows(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    folder = write_portfolio(tmp_path / "pf", files)
    await _import(spine, folder)
    files[FileKind.ONCALL][0]["ack_timeout_s"] = "60"
    files[FileKind.ONCALL] = files[FileKind.ONCALL][:1]  # without --sync the other row stays in the plan
    result = await _import(spine, write_portfolio(folder, files))
    assert _summary(result)["oncall.csv"] == (0, 1, 0, 0, 0)
    plan = await spine.get_oncall_plan("prop_pms_P1")
    assert plan.levels == [["p_pms_S2"], ["p_pms_S1"]] and plan.ack_timeout_s == 60
