"""Which ImportRecords an import reads: by key, for the rows a file names and the rows they refer
to (BatchGetItem on DynamoDB, a few statements on SQLite: what a file needs, not the whole source),
and by query only where the whole kind is the question (--sync, on-call plans)."""
from __future__ import annotations

import spine.keys as keys
from desk.portfolio import fields
from desk.portfolio.files import FileKind, RawFile, row_key
from desk.portfolio.known import Known
from desk.portfolio.record import ImportRecord, bucket, records_from, records_of
from spine.store.base import Store

# The columns of each file that name another file's rows.
REFERENCES: dict[FileKind, list[tuple[str, FileKind]]] = {
    FileKind.PROPERTIES: [("organization", FileKind.ORGANIZATIONS)],
    FileKind.UNITS: [("property", FileKind.PROPERTIES)],
    FileKind.VENDORS: [("properties", FileKind.PROPERTIES)],
    FileKind.RESIDENTS: [("person", FileKind.PEOPLE), ("unit", FileKind.UNITS)],
    FileKind.STAFF: [("person", FileKind.PEOPLE), ("organization", FileKind.ORGANIZATIONS),
                     ("properties", FileKind.PROPERTIES)],
    FileKind.VENDOR_CONTACTS: [("vendor", FileKind.VENDORS), ("person", FileKind.PEOPLE)],
    FileKind.WORK_ORDERS: [("property", FileKind.PROPERTIES), ("unit", FileKind.UNITS), ("vendor", FileKind.VENDORS),
                           ("reporter", FileKind.PEOPLE)],
    FileKind.ONCALL: [("property", FileKind.PROPERTIES), ("person", FileKind.PEOPLE)],
}


async def by_key(store: Store, source: str, kind: FileKind, external_ids: set[str]) -> dict[str, ImportRecord]:
    wanted = [(keys.import_rows(source, kind.value, bucket(e)), keys.import_row(e)) for e in sorted(external_ids) if e]
    return records_from(list((await store.get_many(wanted)).values()))


async def records_for(store: Store, source: str, kind: FileKind, raw: RawFile, *, sync: bool) -> dict[str, ImportRecord]:
    """The records a file's planning compares against: the whole kind under --sync (what is not
    listed ends), else those of the rows it names (the import reads on-call plans whole only when a
    row changed)."""
    if sync:
        return await records_of(store, source, kind.value)
    return await by_key(store, source, kind, {row_key(kind, cells) for _, cells in raw.rows})


async def learn_references(store: Store, known: Known, kind: FileKind, raw: RawFile) -> None:
    """Make every row the file refers to known (ids, and the cells a unit or property resolves
    through), reading only those neither planned in this run nor read already."""
    wanted: dict[FileKind, set[str]] = {}
    for column, target in REFERENCES.get(kind, []):
        for _, cells in raw.rows:
            wanted.setdefault(target, set()).update(fields.listed(cells.get(column, "")))
    while wanted:
        following: dict[FileKind, set[str]] = {}
        for target, exts in wanted.items():
            missing = {e for e in exts if e not in known.ids[target] and e not in known.failed[target]}
            for ext, rec in (await by_key(store, known.source, target, missing)).items() if missing else []:
                known.know(target, ext, rec.internal_id, rec.cells)
            for ext in exts & set(known.cells[target]):  # a unit resolves through its property, a property its org
                if target == FileKind.UNITS:
                    following.setdefault(FileKind.PROPERTIES, set()).add(known.cells[target][ext]["property"])
                elif target == FileKind.PROPERTIES:
                    following.setdefault(FileKind.ORGANIZATIONS, set()).add(known.cells[target][ext]["organization"])
        wanted = following
