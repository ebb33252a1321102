"""`export_portfolio`: what one source imported, written back as the same files and columns (the
cells as last imported, in their normalised spelling), so importing the export changes nothing.
Rows that --sync ended are left out: the source no longer lists them."""
from __future__ import annotations

import csv
from pathlib import Path

from desk.portfolio.cells import escape_row
from desk.portfolio.files import SPECS, FileKind
from desk.portfolio.record import check_source, records_of
from spine.store.base import Store


async def export_portfolio(store: Store, folder: Path, source: str = "pms") -> dict[FileKind, int]:
    """Rows written per file (a file is written only when the source imported rows of its kind)."""
    check_source(source)
    tables: dict[FileKind, list[list[str]]] = {}
    for kind in FileKind:
        records = [r for r in (await records_of(store, source, kind)).values() if not r.ended]
        if kind == FileKind.ONCALL:
            records.sort(key=lambda r: (r.cells["property"], int(r.cells["level"]), r.cells["person"]))
        if records:
            tables[kind] = [[r.cells.get(c, "") for c in SPECS[kind].names] for r in records]
    write_tables(folder, tables)
    return {kind: len(rows) for kind, rows in tables.items()}


def write_tables(folder: Path, tables: dict[FileKind, list[list[str]]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for kind, rows in tables.items():
        with (folder / kind.filename).open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(SPECS[kind].names)
            writer.writerows(escape_row(row) for row in rows)  # no formula a spreadsheet would run
