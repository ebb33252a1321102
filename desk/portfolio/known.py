"""What a plan knows while it runs: the rows the source imported before, the rows planned so far in
this run (a reference may name either), the store items read up front in bulk, and the wire
addresses this run hands out (two rows may not claim one phone)."""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

from desk.oncall.people import Planned
from desk.portfolio.files import FileKind
from desk.portfolio.record import ImportRecord, internal_id
from spine.errors import SpineError
from spine.store.base import Item

Key = tuple[str, str]
Progress = Callable[[FileKind, int, int], None]  # (file, rows done, rows in the file)


def _no_progress(kind: FileKind, done: int, total: int) -> None:
    pass

PREFIX: dict[FileKind, str] = {
    FileKind.ORGANIZATIONS: "org", FileKind.PROPERTIES: "prop", FileKind.UNITS: "u", FileKind.PEOPLE: "p",
    FileKind.VENDORS: "v", FileKind.RESIDENTS: "tr", FileKind.STAFF: "sr", FileKind.VENDOR_CONTACTS: "vr",
    FileKind.WORK_ORDERS: "wo", FileKind.ONCALL: "oc",
}
SINGULAR: dict[FileKind, str] = {
    FileKind.ORGANIZATIONS: "organization", FileKind.PROPERTIES: "property", FileKind.UNITS: "unit",
    FileKind.PEOPLE: "person", FileKind.VENDORS: "vendor", FileKind.RESIDENTS: "resident",
    FileKind.STAFF: "staff member", FileKind.VENDOR_CONTACTS: "vendor contact", FileKind.WORK_ORDERS: "work order",
    FileKind.ONCALL: "on-call row",
}


class RowFailure(SpineError):
    """One row cannot apply: the column to blame and why."""

    def __init__(self, column: str, reason: str) -> None:
        super().__init__(f"{column}: {reason}")
        self.column, self.reason = column, reason


@dataclass
class Known:
    source: str
    today: date
    now: datetime
    records: dict[FileKind, dict[str, ImportRecord]] = field(default_factory=dict)  # the kind being planned
    stored: dict[Key, Item] = field(default_factory=dict)  # items read in bulk before planning
    ids: dict[FileKind, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    cells: dict[FileKind, dict[str, dict[str, str]]] = field(default_factory=lambda: defaultdict(dict))
    failed: dict[FileKind, dict[str, int]] = field(default_factory=lambda: defaultdict(dict))
    handed_out: dict[str, tuple[str, str]] = field(default_factory=dict)  # address key -> (owner id, "file:line")
    oncall_settings: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)  # property -> column -> (value, line)
    progress: Progress = _no_progress
    keep_ids: bool = False  # the folder's external ids are the store's own (the demo portfolio)
    moved: set[str] = field(default_factory=set)  # property external ids whose organization this run changed
    planned: Planned = field(default_factory=Planned)  # what on-call eligibility reads of this run's plans
    oncall_refused: dict[tuple[str, str], str] = field(default_factory=dict)  # (person, property) -> why not on call

    def staff_row_moved(self, cells: dict[str, str]) -> bool:
        """Whether a staff row limited to properties names one no longer in the organization it was
        planned with (moved in this run, or now in another org than the row names): planned again,
        unchanged or not, so the role is checked against the property's new org (issue 40 item 4)."""
        named = [p.strip() for p in cells.get("properties", "").split(";") if p.strip()]
        if any(p in self.moved for p in named):
            return True
        org = cells.get("organization", "")
        props = self.cells.get(FileKind.PROPERTIES, {})
        return bool(org) and any(p in props and props[p]["organization"] != org for p in named)

    def new_id(self, kind: FileKind, external_id: str) -> str:
        """The internal id of a row the source never imported before."""
        return external_id if self.keep_ids else internal_id(PREFIX[kind], self.source, external_id)

    def know(self, kind: FileKind, external_id: str, internal_id: str, cells: dict[str, str]) -> None:
        self.ids[kind][external_id] = internal_id
        if kind in (FileKind.UNITS, FileKind.PROPERTIES):  # what a reference to them resolves through
            self.cells[kind][external_id] = cells

    def resolve(self, kind: FileKind, external_id: str, column: str) -> str:
        """The internal id a reference names: a row of this run, or one the source imported before."""
        found = self.ids[kind].get(external_id)
        if found is not None:
            return found
        line = self.failed[kind].get(external_id)
        if line is not None:
            raise RowFailure(column, f"{SINGULAR[kind]} {external_id!r} did not import ({kind.filename}:{line} failed)")
        raise RowFailure(column, f"unknown {SINGULAR[kind]} {external_id!r} (not in {kind.filename}, "
                                 f"nor imported before from source {self.source!r})")

    def cells_of(self, kind: FileKind, external_id: str) -> dict[str, str]:
        return self.cells[kind][external_id]

    def property_of_unit(self, unit_ext: str, column: str) -> tuple[str, str]:
        """(unit id, property external id) of a unit reference."""
        unit_id = self.resolve(FileKind.UNITS, unit_ext, column)
        return unit_id, self.cells_of(FileKind.UNITS, unit_ext)["property"]

    def org_of_property(self, property_ext: str, column: str) -> tuple[str, str]:
        """(property id, org id) of a property reference."""
        property_id = self.resolve(FileKind.PROPERTIES, property_ext, column)
        org_ext = self.cells_of(FileKind.PROPERTIES, property_ext)["organization"]
        return property_id, self.resolve(FileKind.ORGANIZATIONS, org_ext, column)

    def hand_out(self, key: str, owner: str, where: str, column: str, what: str) -> None:
        """`key` (a claim or a property address) goes to `owner`, unless another row of this run took it."""
        held = self.handed_out.get(key)
        if held is not None and held[0] != owner:
            raise RowFailure(column, f"{what} is also {held[1]}'s ({held[0]}); one {what.split()[0]} reaches one "
                                     "record")
        self.handed_out[key] = (owner, where)


@dataclass
class RowPlan:
    """What one row writes: items (a row applies whole or not at all), keys it no longer owns to
    delete, and the keys it owns from now on (kept on its ImportRecord)."""

    internal_id: str
    items: list[Item] = field(default_factory=list)
    owned: list[Key] = field(default_factory=list)
    deletes: list[Key] = field(default_factory=list)
    ended: bool = False  # what the row makes is no longer in force (a past move-out)

    def write(self, item: Item, *, own: bool = True) -> None:
        self.items.append(item)
        if own:
            self.owned.append((item.pk, item.sk))


def current(known: Known, rec: ImportRecord | None, index: int = 0) -> Item | None:
    """The stored item a row wrote before (its first owned key unless told), as read up front."""
    if rec is None or len(rec.item_keys) <= index:
        return None
    pk, sk = rec.item_keys[index]
    return known.stored.get((pk, sk))


def released(known: Known, rec: ImportRecord | None, plan: RowPlan, owner: str) -> list[Key]:
    """Address keys (claims, property numbers) the row held and no longer does, that still point at `owner`."""
    if rec is None:
        return []
    keep = set(plan.owned)
    gone = []
    for pk, sk in rec.item_keys:
        item = known.stored.get((pk, sk))
        if (pk, sk) not in keep and item is not None and owner in (item.data.get("person_id"), item.data.get("property_id")):
            gone.append((pk, sk))
    return gone
