"""Issue 40 item 4: a property moved to another organization by a re-import takes none of its old
org's property-scoped staff along: the unchanged staff rows naming it are planned again and fail,
and the roles they wrote no longer reach the property."""
from __future__ import annotations

from datetime import date

from desk.portfolio.files import FileKind
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.repo import Spine
from spine.roles import resolve_active_roles
from tests.support.portfolio_helpers import sample_portfolio, write_portfolio

TODAY = date(2026, 12, 2)


async def _import(spine: Spine, folder):
    return await import_portfolio(spine, folder, ImportOptions(), today=TODAY)


async def test_a_property_moved_to_another_org_rechecks_the_unchanged_staff_rows(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    files[FileKind.ORGANIZATIONS].append({"external_id": "ORG2", "name": "Southgate Homes"})
    # One row names its organization, one leaves it to the property's (both limited to P2).
    files[FileKind.STAFF].append({"external_id": "ST3", "person": "S1", "role": "viewer", "organization": "",
                                  "properties": "P2"})
    first = await _import(spine, write_portfolio(tmp_path / "pf", files))
    assert not first.report.failed
    s1, s2 = "p_pms_S1", "p_pms_S2"
    assert {r.role_type.value for r in await resolve_active_roles(spine, s2, "prop_pms_P2")} == {"maintenance"}

    files[FileKind.PROPERTIES][1]["organization"] = "ORG2"  # P2 is sold to Southgate; staff.csv unchanged
    second = await _import(spine, write_portfolio(tmp_path / "pf", files))
    staff = next(r for r in second.report.files if r.file == "staff.csv")
    assert sorted((e.column, e.reason) for e in staff.errors) == [
        ("properties", "property 'P2' is not in the staff member's organization")] * 2
    assert (await spine.get_property("prop_pms_P2")).org_id != (await spine.get_property("prop_pms_P1")).org_id
    assert await resolve_active_roles(spine, s2, "prop_pms_P2") == []
    assert [r.role_type.value for r in await resolve_active_roles(spine, s1, "prop_pms_P2")] == []
    assert {r.role_type.value for r in await resolve_active_roles(spine, s2, "prop_pms_P1")} == {"maintenance"}
