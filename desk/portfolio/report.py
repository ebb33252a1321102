"""What an import says: a line per file (`FILE: C created, U updated, S unchanged, E ended, X errors`)
and a line per bad row (`FILE:LINE: COLUMN: reason`), and the failing rows as CSV (--errors-csv)."""
from __future__ import annotations

import csv
from pathlib import Path

from pydantic import BaseModel, Field

from desk.portfolio.cells import escape_row


class RowError(BaseModel):
    file: str
    line: int
    column: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.column}: {self.reason}"


class FileReport(BaseModel):
    file: str
    created: int = 0
    updated: int = 0
    unchanged: int = 0
    ended: int = 0
    errors: list[RowError] = Field(default_factory=list)

    def __str__(self) -> str:
        return (f"{self.file}: {self.created} created, {self.updated} updated, {self.unchanged} unchanged, "
                f"{self.ended} ended, {len(self.errors)} errors")


class ImportReport(BaseModel):
    files: list[FileReport] = Field(default_factory=list)
    applied: bool = False  # False on --dry-run, and on --strict when a row failed

    @property
    def failed(self) -> bool:
        return any(r.errors for r in self.files)

    def lines(self) -> list[str]:
        """Every bad row, then the file summaries."""
        return [str(e) for r in self.files for e in r.errors] + [str(r) for r in self.files]


def write_errors_csv(path: Path, failed: list[tuple[RowError, dict[str, str]]]) -> None:
    """The failing rows as they were read, with `file`, `line` and `reason` columns in front."""
    columns: list[str] = []
    for _, raw in failed:
        columns += [c for c in raw if c not in columns]
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["file", "line", "reason", *columns])
        for error, raw in failed:
            writer.writerow(escape_row([error.file, str(error.line), f"{error.column}: {error.reason}",
                                        *(raw.get(c, "") for c in columns)]))
