"""The plan of an import: every file's rows, in dependency order, against what the source imported
before; what each row writes, the counts per file, the rows that fail and why. Planning writes
nothing, so --dry-run and --strict decide on a whole plan before anything applies."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from desk.portfolio.files import FileKind, ParsedFile, ParsedRow
from desk.portfolio.known import Key, Known, RowFailure, RowPlan
from desk.portfolio.oncall_plans import oncall_plans
from desk.portfolio.plan_people import plan_person, plan_resident, plan_staff, plan_vendor_contact
from desk.portfolio.plan_places import plan_organization, plan_property, plan_unit, plan_vendor
from desk.portfolio.plan_work import plan_oncall, plan_work_order, work_order_id, work_order_number
from desk.portfolio.prefetch import needs_plan, read_up_front, to_end
from desk.portfolio.record import ImportRecord
from desk.portfolio.report import FileReport, RowError
from spine.identity import PersonRole
from spine.oncall import OnCallPlan
from spine.property import Unit, Vendor
from spine.repo.items import role_item, unit_item, vendor_item
from spine.store.base import Item, Store
from spine.work import WorkOrder

Planner = Callable[[ParsedRow, ImportRecord | None, Known, str], RowPlan]
PLANNERS: dict[FileKind, Planner] = {
    FileKind.ORGANIZATIONS: plan_organization, FileKind.PROPERTIES: plan_property, FileKind.UNITS: plan_unit,
    FileKind.PEOPLE: plan_person, FileKind.VENDORS: plan_vendor, FileKind.RESIDENTS: plan_resident,
    FileKind.STAFF: plan_staff, FileKind.VENDOR_CONTACTS: plan_vendor_contact,
    FileKind.WORK_ORDERS: plan_work_order, FileKind.ONCALL: plan_oncall,
}


@dataclass
class Plan:
    reports: list[FileReport] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)  # the domain records, written first
    records: list[ImportRecord] = field(default_factory=list)  # then what each row became
    deletes: list[Key] = field(default_factory=list)
    numbered_later: list[tuple[ImportRecord, WorkOrder]] = field(default_factory=list)
    sequence_floor: int = 0
    oncall: list[OnCallPlan] = field(default_factory=list)
    oncall_cleared: list[str] = field(default_factory=list)
    failed: list[tuple[RowError, dict[str, str]]] = field(default_factory=list)

    @property
    def writes(self) -> int:
        return len(self.items) + len(self.records) + len(self.deletes) + len(self.numbered_later) + len(self.oncall)


def unparsed_if(kind: FileKind, records: dict[str, ImportRecord], known: Known) -> dict[str, str]:
    """The digest each row may be read with to count as unchanged without a parse: rows not
    ended, residents whose move-out has not passed since, and staff rows whose properties are
    still in their org (the others are planned again)."""
    return {ext: rec.digest for ext, rec in records.items() if rec.digest and not rec.ended
            and not (kind == FileKind.RESIDENTS and _moved_out(rec.cells, known.today))
            and not (kind == FileKind.STAFF and known.staff_row_moved(rec.cells))}


def _moved_out(cells: dict[str, str], today: date) -> bool:
    return bool(cells.get("move_out")) and cells["move_out"] < today.isoformat()


async def plan_file(store: Store, kind: FileKind, parsed: ParsedFile, known: Known, *, sync: bool) -> Plan:
    """The plan of one file, against `known.records[kind]` (the rows the source imported of its kind)."""
    records = known.records[kind]
    for row in parsed.rows if kind == FileKind.WORK_ORDERS else []:
        numbered = records.get(row.row.external_id)
        if numbered is not None and not row.cells["display_id"]:  # numbered by the gateway on first import
            row.cells["display_id"] = numbered.cells["display_id"]
    for error, raw in parsed.failed_raw:  # a row that failed to parse fails the rows naming it, by line
        if raw.get("external_id") and raw["external_id"] not in records:
            known.failed[kind].setdefault(raw["external_id"], error.line)
    await read_up_front(store, kind, parsed, known, sync)
    plan = Plan(failed=list(parsed.failed_raw))
    report = FileReport(file=kind.filename, errors=list(parsed.errors))
    _plan_file(kind, parsed, known, plan, report)
    if sync:
        _plan_ends(kind, parsed, known, plan, report)
    plan.reports.append(report)
    if kind == FileKind.ONCALL:
        plan.oncall, plan.oncall_cleared = oncall_plans(known, plan.records)
    known.stored = {}
    return plan


PROGRESS_EVERY = 500  # rows between two progress reports


def _plan_file(kind: FileKind, parsed: ParsedFile, known: Known, plan: Plan, report: FileReport) -> None:
    report.unchanged += len(parsed.same)
    total = len(parsed.same) + len(parsed.rows)
    for done, row in enumerate(parsed.rows, start=len(parsed.same)):
        if done % PROGRESS_EVERY == 0:
            known.progress(kind, done, total)
        ext = row.row.external_id
        rec = known.records[kind].get(ext)
        if not needs_plan(kind, row, rec, known):
            report.unchanged += 1
            continue
        iid = ""
        try:
            iid = work_order_id(row, rec) if kind == FileKind.WORK_ORDERS else \
                rec.internal_id if rec else known.new_id(kind, ext)
            rp = PLANNERS[kind](row, rec, known, iid)
        except RowFailure as exc:
            error = RowError(file=kind.filename, line=row.line, column=exc.column, reason=exc.reason)
            report.errors.append(error)
            plan.failed.append((error, row.raw))
            known.handed_out = {k: v for k, v in known.handed_out.items() if v[0] not in (iid, ext)}
            if rec is None:
                known.failed[kind][ext] = row.line
            continue
        if kind == FileKind.PROPERTIES and rec is not None and rec.cells.get("organization") != row.cells["organization"]:
            known.moved.add(ext)
        if rec is None:
            report.created += 1
        elif rp.ended and not rec.ended:
            report.ended += 1
        else:
            report.updated += 1
        record = ImportRecord(source=known.source, kind=kind.value, external_id=ext, internal_id=iid, cells=row.cells,
                              digest=row.digest, item_keys=rp.owned, ended=rp.ended, created_at=rec.created_at if rec else known.now,
                              updated_at=known.now)
        known.know(kind, ext, iid, row.cells)
        plan.deletes += rp.deletes
        if kind == FileKind.WORK_ORDERS and not iid:
            plan.numbered_later.append((record, WorkOrder.model_validate(rp.items[0].data)))
            continue
        if kind == FileKind.WORK_ORDERS:
            plan.sequence_floor = max(plan.sequence_floor, work_order_number(iid))
        plan.items += rp.items
        plan.records.append(record)


def _plan_ends(kind: FileKind, parsed: ParsedFile, known: Known, plan: Plan, report: FileReport) -> None:
    """--sync: what the source no longer lists ends (roles inactive, units and vendors inactive)."""
    for rec in to_end(kind, parsed, known):
        for key in rec.item_keys:
            item = known.stored.get(key)
            if item is None:
                continue
            if kind == FileKind.UNITS:
                plan.items.append(unit_item(Unit.model_validate(item.data).model_copy(update={"active": False})))
            elif kind == FileKind.VENDORS:
                plan.items.append(vendor_item(Vendor.model_validate(item.data).model_copy(update={"active": False})))
            elif kind != FileKind.ONCALL:
                role = PersonRole.model_validate(item.data)
                plan.items.append(role_item(role.model_copy(update={"active": False})))
        plan.records.append(rec.model_copy(update={"ended": True, "updated_at": known.now}))
        report.ended += 1
