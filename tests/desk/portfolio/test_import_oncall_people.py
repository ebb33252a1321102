"""Issue 40 item 10: oncall.csv names only staff or vendor contacts of the property, alive and
active; judged over the store and what the same run planned (so --dry-run and --strict agree)."""
from __future__ import annotations

from datetime import date

import pytest

from desk.portfolio.files import FileKind
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.repo import Spine
from tests.support.portfolio_helpers import sample_portfolio, write_portfolio


@pytest.mark.parametrize("options", [{}, {"dry_run": True}, {"strict": True}])
async def test_a_tenant_on_the_ladder_fails_by_line_and_a_vendor_contact_is_kept(store, tmp_path, options):
    spine = Spine(store)
    files = sample_portfolio()
    files[FileKind.ONCALL] += [
        {"property": "P1", "level": "3", "person": "T1", "ack_timeout_s": "", "repeats": ""},  # Ava, a tenant
        {"property": "P1", "level": "3", "person": "T3", "ack_timeout_s": "", "repeats": ""},  # Dana's Plumbing
    ]
    result = await import_portfolio(spine, write_portfolio(tmp_path / "pf", files), ImportOptions(**options),
                                    today=date(2026, 12, 2))
    errors = [str(e) for r in result.report.files for e in r.errors]
    assert errors == ["oncall.csv:4: person: p_pms_T1 is neither staff nor a vendor contact of prop_pms_P1"]
    if not options:
        plan = await spine.get_oncall_plan("prop_pms_P1")
        assert plan.levels == [["p_pms_S2"], ["p_pms_S1"], ["p_pms_T3"]]


async def test_a_deceased_person_is_refused(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    next(p for p in files[FileKind.PEOPLE] if p["external_id"] == "S1")["deceased"] = "yes"
    result = await import_portfolio(spine, write_portfolio(tmp_path / "pf", files), ImportOptions(),
                                    today=date(2026, 12, 2))
    assert [str(e) for r in result.report.files for e in r.errors] == [
        "oncall.csv:3: person: p_pms_S1 is deceased"]
