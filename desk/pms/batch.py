"""What a PMS mapping hands the importer: per file kind, the rows its records became (the
portfolio import's row models), the external ids whose role or listing ended, and the records that
could not be read at all. The importer takes rows as cells, as a CSV file holds them."""
from __future__ import annotations

from dataclasses import dataclass, field

from desk.portfolio import fields as f
from desk.portfolio.files import SPECS, FileKind, RawFile
from desk.portfolio.rows import Row

ENTITY: dict[FileKind, str] = {  # how a sync's report names each kind
    FileKind.PROPERTIES: "properties", FileKind.UNITS: "units", FileKind.PEOPLE: "people",
    FileKind.VENDORS: "vendors", FileKind.RESIDENTS: "residents", FileKind.VENDOR_CONTACTS: "vendor_contacts",
}
FIRST_LINE = 2  # a row's "line" as the importer counts it: 1 is the (absent) header


@dataclass
class KindBatch:
    rows: list[Row] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)  # external ids to end (a move-out, a past lease, an inactive vendor)
    unread: list[tuple[str, str]] = field(default_factory=list)  # (record, reason) of records that did not read

    def add(self, row: Row) -> None:
        self.ended.discard(row.external_id)
        self.rows.append(row)

    def end(self, external_id: str) -> None:
        if not any(r.external_id == external_id for r in self.rows):
            self.ended.add(external_id)

    def raw(self, kind: FileKind) -> RawFile:
        """The rows as the importer reads a file: cells in their written spelling, by line."""
        names = SPECS[kind].names
        return RawFile(names, [(line, {n: f.cell(getattr(row, n, None)) for n in names})
                               for line, row in enumerate(self.rows, start=FIRST_LINE)])

    def external_id_at(self, line: int) -> str:
        index = line - FIRST_LINE
        return self.rows[index].external_id if 0 <= index < len(self.rows) else "?"


@dataclass
class Batch:
    kinds: dict[FileKind, KindBatch] = field(default_factory=lambda: {k: KindBatch() for k in ENTITY})
    # Set by the run (desk.pms.run) from the people's resolution (desk.pms.people):
    aliases: dict[str, str] = field(default_factory=dict)  # person external id -> the row's it is
    adopted: dict[str, str] = field(default_factory=dict)  # person external id -> a stored Person's id
    conflicts: dict[str, tuple[str, str]] = field(default_factory=dict)  # person external id -> (column, reason)

    def __getitem__(self, kind: FileKind) -> KindBatch:
        return self.kinds[kind]
