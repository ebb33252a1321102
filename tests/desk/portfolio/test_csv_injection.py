"""Issue 40 item 11: `gateway export` and `--errors-csv` write no cell a spreadsheet would run as
a formula (OWASP "CSV Injection": a leading single quote before = + - @, tab or CR), and an import
of the export reads every cell back exactly as it was."""
from __future__ import annotations

import csv
from datetime import date

import pytest

from desk.portfolio.cells import escape_cell, unescape_cell
from desk.portfolio.export import export_portfolio
from desk.portfolio.files import FileKind
from desk.portfolio.report import RowError, write_errors_csv
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.repo import Spine
from tests.support.portfolio_helpers import sample_portfolio, write_portfolio

TYPED = '=HYPERLINK("http://evil.example","click")'


@pytest.mark.parametrize("value", ["=1+1", "+1206", "-5", "@SUM(A1)", "\tx", "\rx", "'=x", "''+x", "'plain",
                                   "plain", "", "'", "a=b"])
def test_escape_then_unescape_is_the_value(value):
    escaped = escape_cell(value)
    assert not escaped.startswith(("=", "+", "-", "@", "\t", "\r"))
    assert unescape_cell(escaped) == value


def _cells(path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


async def test_an_export_escapes_formulas_and_imports_back_unchanged(store, tmp_path):
    spine = Spine(store)
    files = sample_portfolio()
    files[FileKind.PEOPLE][0]["first_name"] = TYPED
    files[FileKind.PEOPLE][0]["last_name"] = "@SUM(1+1)"
    files[FileKind.WORK_ORDERS][0]["brief"] = "-2+3 leak"
    first = await import_portfolio(spine, write_portfolio(tmp_path / "pf", files), ImportOptions(), today=date(2026, 12, 2))
    assert not first.report.failed
    await export_portfolio(store, tmp_path / "out")
    people = _cells(tmp_path / "out" / "people.csv")
    flat = [cell for row in people + _cells(tmp_path / "out" / "work_orders.csv") for cell in row]
    assert not [c for c in flat if c.startswith(("=", "+", "-", "@"))]
    assert "'" + TYPED in flat and "'@SUM(1+1)" in flat and "'-2+3 leak" in flat and "'+12065550710" in flat
    again = await import_portfolio(spine, tmp_path / "out", ImportOptions(), today=date(2026, 12, 2))
    assert again.writes == 0 and all(r.created == r.updated == 0 for r in again.report.files)
    assert (await spine.get_person("p_pms_T1")).display_name.startswith(TYPED)


def test_the_errors_csv_escapes_the_rows_it_repeats(tmp_path):
    path = tmp_path / "errors.csv"
    write_errors_csv(path, [(RowError(file="people.csv", line=2, column="phone", reason="bad"),
                             {"external_id": "=cmd|' /C calc'!A0", "phone": "+1 206"})])
    [header, row] = _cells(path)
    assert dict(zip(header, row, strict=True))["external_id"] == "'=cmd|' /C calc'!A0"
    assert dict(zip(header, row, strict=True))["phone"] == "'+1 206"
