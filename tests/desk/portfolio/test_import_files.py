"""Issue 40 item 9: every file is read and checked before any applies; a Latin-1, UTF-16 or
oversized file (or one the csv module cannot read) is one FILE error, never a traceback after the
files before it applied."""
from __future__ import annotations

import csv
from datetime import date

import pytest

from desk.portfolio.file_check import check_file
from desk.portfolio.run import ImportOptions, import_portfolio
from spine.repo import Spine
from tests.support.portfolio_helpers import sample_portfolio, write_portfolio


def _rewrite(path, encoding: str, replace: tuple[str, str] = ("", "")) -> None:
    text = path.read_text(encoding="utf-8").replace(*replace)
    path.write_bytes(text.encode(encoding))


async def test_a_latin1_and_a_utf16_file_are_file_errors_and_the_rest_apply(store, tmp_path):
    spine = Spine(store)
    folder = write_portfolio(tmp_path / "pf", sample_portfolio())
    _rewrite(folder / "units.csv", "utf-16")  # Excel's "Unicode text"
    _rewrite(folder / "work_orders.csv", "latin-1", ("Kitchen faucet drips.", "Grifo de la cocina gotea, José"))
    result = await import_portfolio(spine, folder, ImportOptions(), today=date(2026, 12, 2))
    errors = {e.file: str(e) for r in result.report.files for e in r.errors if e.column == "file"}
    assert errors == {
        "units.csv": "units.csv:1: file: the file is UTF-16, not UTF-8: save the export as UTF-8 CSV",
        "work_orders.csv": "work_orders.csv:2: file: byte 0xe9 is not UTF-8 (a Latin-1 or Windows export?): "
                           "save the export as UTF-8 CSV"}
    assert result.report.applied and await spine.get_person("p_pms_T1") is not None  # the readable files applied
    assert await spine.get_unit("u_pms_U101") is None and await spine.units_of("prop_pms_P1") == []


async def test_strict_applies_nothing_when_a_file_is_unreadable(store, tmp_path):
    spine = Spine(store)
    folder = write_portfolio(tmp_path / "pf", sample_portfolio())
    _rewrite(folder / "work_orders.csv", "latin-1", ("leaky faucet", "fuga del baño"))
    result = await import_portfolio(spine, folder, ImportOptions(strict=True), today=date(2026, 12, 2))
    assert result.report.failed and not result.report.applied
    assert await spine.get_person("p_pms_T1") is None


@pytest.mark.parametrize("content, line, reason", [
    (b"external_id,name\nORG1,North\x00wind\n", 2, "a NUL byte"),
    (b"external_id,name\nORG1," + b"x" * (csv.field_size_limit() + 1) + b"\n", 2, "not readable as CSV"),
    (b"\xef\xbb\xbfexternal_id,name\nORG1,Northwind \xc3\xa9\n", None, None),  # UTF-8 with a BOM is fine
])
def test_what_the_check_refuses(tmp_path, content, line, reason):
    path = tmp_path / "organizations.csv"
    path.write_bytes(content)
    error = check_file(path)
    assert (error.line, error.reason.startswith(reason)) == (line, True) if reason else error is None


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "people.csv"
    path.write_bytes(b"external_id\n" + b"P1\n" * 100)
    assert check_file(path, max_bytes=1000) is None
    error = check_file(path, max_bytes=100)
    assert str(error) == ("people.csv:1: file: 312 bytes is more than the 100 an import reads per file: "
                          "split it, or import it in parts")
