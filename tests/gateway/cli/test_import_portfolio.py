"""`gateway import` and `gateway export` as a user runs them: the lines they print, the exit status,
--errors-csv, and the export imported back changing nothing."""
from __future__ import annotations

import csv

from desk.portfolio.files import FileKind
from tests.support.cli_helpers import run_gateway
from tests.support.portfolio_helpers import sample_portfolio, write_portfolio


def test_import_reports_each_file_and_bad_row_writes_the_errors_csv_and_exports(tmp_path):
    store_url = f"sqlite:///{tmp_path / 'clara.db'}"
    files = sample_portfolio()
    files[FileKind.PEOPLE][1]["phone"] = "555-01"
    folder = write_portfolio(tmp_path / "pf", files)
    done = run_gateway("import", str(folder), "--errors-csv", str(tmp_path / "errors.csv"), store_url=store_url)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "people.csv:3: phone: '555-01' is not a valid phone number (read in region US)"
    assert lines[1] == "residents.csv:3: person: person 'T2' did not import (people.csv:3 failed)"
    assert "people.csv: 5 created, 0 updated, 0 unchanged, 0 ended, 1 errors" in lines
    with (tmp_path / "errors.csv").open() as handle:
        failed = list(csv.DictReader(handle))
    assert [(r["file"], r["line"], r["external_id"]) for r in failed] == [("people.csv", "3", "T2"),
                                                                         ("residents.csv", "3", "OCC2")]
    assert failed[0]["reason"].startswith("phone: ") and failed[0]["phone"] == "555-01"

    exported = run_gateway("export", str(tmp_path / "out"), store_url=store_url)
    assert exported.returncode == 0 and "people.csv: 5 rows" in exported.stdout
    again = run_gateway("import", str(tmp_path / "out"), "--sync", store_url=store_url)
    assert again.returncode == 0, again.stdout
    assert all(", 0 updated, " in line and line.split(": ")[1].startswith("0 created") for line in again.stdout.splitlines())


def test_help_lists_every_file_and_column():
    done = run_gateway("import", "--help", store_url="sqlite:///unused.db")
    for kind in FileKind:
        assert kind.filename in done.stdout
    assert "external_id*, person*, unit*, kind, move_in, move_out" in done.stdout
