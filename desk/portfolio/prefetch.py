"""The store reads of an import, made up front in bulk (a few batched reads, not one per row):
the items the rows about to change wrote before, the claims and property addresses they are about
to take, the work order numbers new rows name, and what --sync is about to end."""
from __future__ import annotations

import spine.keys as keys
from desk.portfolio.files import FileKind, ParsedFile, ParsedRow
from desk.portfolio.known import Key, Known, RowFailure
from desk.portfolio.plan_work import work_order_number
from desk.portfolio.record import ImportRecord
from spine.identity import ClaimKind
from spine.store.base import Store
from spine.work import spell_work_order_id

# What --sync ends when the source no longer lists it (people, organizations, properties and
# work orders stay as they are: a person's roles end, not the person).
ENDS = frozenset({FileKind.RESIDENTS, FileKind.STAFF, FileKind.VENDOR_CONTACTS, FileKind.UNITS, FileKind.VENDORS,
                  FileKind.ONCALL})


def needs_plan(kind: FileKind, row: ParsedRow, rec: ImportRecord | None, known: Known) -> bool:
    """False for a row exactly as last imported and still in the state it left (unchanged)."""
    if rec is None or rec.cells != row.cells:
        return True
    if kind == FileKind.RESIDENTS:  # a move-out date that has passed since ends the role now
        move_out = row.cells["move_out"]
        return rec.ended != bool(move_out and move_out < known.today.isoformat())
    if kind == FileKind.STAFF and known.staff_row_moved(row.cells):
        return True
    return rec.ended  # listed again after --sync ended it


def listed(parsed: ParsedFile) -> set[str]:
    """External ids the file names, counting rows that failed to parse (a bad row is not a removal)."""
    names = {r.row.external_id for r in parsed.rows} | {ext for _, ext in parsed.same}
    return names | {raw.get("external_id", "") for _, raw in parsed.failed_raw}


def to_end(kind: FileKind, parsed: ParsedFile, known: Known) -> list[ImportRecord]:
    if kind not in ENDS:
        return []
    names = listed(parsed)
    return [rec for ext, rec in known.records[kind].items() if ext not in names and not rec.ended]


def _row_keys(kind: FileKind, row: ParsedRow, rec: ImportRecord | None, source: str) -> list[Key]:
    found: list[Key] = list(rec.item_keys) if rec else []
    cells = row.cells
    if kind == FileKind.PEOPLE:
        found += [(keys.claim(k, cells[c]), keys.ITEM) for k, c in ((ClaimKind.PHONE, "phone"), (ClaimKind.EMAIL, "email"))
                  if cells[c]]
    elif kind == FileKind.PROPERTIES:
        found += [(keys.number(cells["phone"]), keys.ITEM)] if cells["phone"] else []
        found += [(keys.email(cells["email"]), keys.ITEM)] if cells["email"] else []
    elif kind == FileKind.WORK_ORDERS and rec is None and cells["display_id"]:
        try:
            found.append((keys.work_order(spell_work_order_id(work_order_number(cells['display_id']))), keys.ITEM))
        except RowFailure:
            pass  # the row fails when planned, with the reason
    return found


async def read_up_front(store: Store, kind: FileKind, parsed: ParsedFile, known: Known, sync: bool) -> None:
    """Everything planning `parsed` reads from the store, in two batched reads."""
    wanted: list[Key] = []
    for row in parsed.rows:
        rec = known.records[kind].get(row.row.external_id)
        if needs_plan(kind, row, rec, known):
            wanted += _row_keys(kind, row, rec, known.source)
    for rec in to_end(kind, parsed, known) if sync else []:
        wanted += rec.item_keys
    known.stored = await store.get_many(wanted)
    if kind != FileKind.PEOPLE:
        return
    # Who holds a phone or email a row wants, by name, for the row error that names both.
    ours = {known.new_id(FileKind.PEOPLE, r.row.external_id) for r in parsed.rows}
    holders = {item.data["person_id"] for (pk, _), item in known.stored.items() if pk.startswith(keys.CLAIM_PREFIX)}
    known.stored.update(await store.get_many([(keys.person(p), keys.ITEM) for p in sorted(holders - ours)]))
