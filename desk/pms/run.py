"""A PMS sync through the portfolio importer: the mapping's rows, kind by kind in the import's
order, planned against what the source imported before and applied, so every rule of `gateway
import` holds (stable ids, a second sync writes nothing, a bad record fails alone, ended roles end,
nothing is deleted).

A full sync compares each kind with everything the source imported of it, so what the PMS no
longer lists ends (as `gateway import --sync`). An incremental sync compares only the records it
names and those it was told ended, so it ends exactly those."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime

from desk.pms.batch import ENTITY, Batch, KindBatch
from desk.pms.people import Candidate, resolve_in_run, resolve_in_store
from desk.portfolio.apply import apply_plan
from desk.portfolio.files import SPECS, FileKind, parse_rows
from desk.portfolio.known import Known
from desk.portfolio.lookup import by_key, learn_references
from desk.portfolio.planner import plan_file, unparsed_if
from desk.portfolio.prefetch import ENDS
from desk.portfolio.record import ImportRecord, records_of
from desk.portfolio.report import FileReport, RowError
from spine.repo import Spine


@dataclass
class SyncOptions:
    source: str
    organization: str  # the store's organization id the records belong to
    full: bool = True
    dry_run: bool = False
    today: date | None = None
    now: datetime | None = None
    # Only these kinds (None: all): a sync applies its places while it still reads its people. A
    # kind left out is not touched, so a full sync never ends what a later phase will list.
    kinds: frozenset[FileKind] | None = None
    # External ids earlier phases of this sync applied (people and their roles, a page at a time):
    # neither read again to compare nor ended, as if this phase listed them.
    done: dict[FileKind, set[str]] = field(default_factory=dict)


@dataclass
class SyncReport:
    reports: list[FileReport] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "KIND EXTERNAL_ID: COLUMN: reason"
    writes: int = 0

    @property
    def failed(self) -> bool:
        return bool(self.errors)

    def lines(self) -> list[str]:
        return self.errors + [str(r) for r in self.reports]

    def merge(self, other: SyncReport) -> SyncReport:
        """One report of two phases of the same sync: a kind both applied (a page each) is one line."""
        reports = {r.file: r.model_copy(deep=True) for r in self.reports}
        for r in other.reports:
            if r.file not in reports:
                reports[r.file] = r.model_copy(deep=True)
                continue
            into = reports[r.file]
            into.created, into.updated = into.created + r.created, into.updated + r.updated
            into.unchanged, into.ended = into.unchanged + r.unchanged, into.ended + r.ended
            into.errors += r.errors
        order = list(ENTITY.values())
        ordered = sorted(reports.values(), key=lambda r: order.index(r.file) if r.file in order else len(order))
        return SyncReport(ordered, self.errors + other.errors, self.writes + other.writes)

    def counts(self) -> dict[str, dict[str, int]]:
        return {r.file: {"created": r.created, "updated": r.updated, "unchanged": r.unchanged, "ended": r.ended,
                         "errors": len(r.errors)} for r in self.reports}


ORG_REF = "organization"  # the one organization row every property names


async def run_sync(spine: Spine, batch: Batch, people: list[Candidate], options: SyncOptions) -> SyncReport:
    now = options.now or spine.clock()
    known = Known(options.source, options.today or now.date(), now)
    known.know(FileKind.ORGANIZATIONS, ORG_REF, options.organization, {})
    report = SyncReport()
    if options.kinds is None or FileKind.PEOPLE in options.kinds:
        await _resolve_people(spine, batch, people, known, report)
    for kind in ENTITY:
        if options.kinds is not None and kind not in options.kinds:
            continue
        await _sync_kind(spine, kind, batch, known, options, report)
        if kind == FileKind.PEOPLE:
            await _know_aliases(spine, batch, known, options)
    return report


async def _resolve_people(spine: Spine, batch: Batch, people: list[Candidate], known: Known,
                          report: SyncReport) -> None:
    res = resolve_in_run(people)
    stored = await by_key(spine.store, known.source, FileKind.PEOPLE, {r.external_id for r in res.rows})
    # The Person a row is (or becomes): its own, never the one an alias record points at (a row
    # planned onto another's Person would rewrite that Person).
    own = {r.external_id: stored[r.external_id].internal_id if r.external_id in stored
           and not is_alias(stored[r.external_id]) else known.new_id(FileKind.PEOPLE, r.external_id) for r in res.rows}
    await resolve_in_store(spine.store, res, own)
    batch[FileKind.PEOPLE].rows = list(res.rows)
    for ext in res.conflicts:
        known.failed[FileKind.PEOPLE][ext] = 0  # the roles naming it fail, saying it did not import
    batch.aliases, batch.adopted, batch.conflicts = res.alias_of_row, res.alias_of_person, res.conflicts


def is_alias(rec: ImportRecord) -> bool:
    return "alias_of" in rec.cells


async def _know_aliases(spine: Spine, batch: Batch, known: Known, options: SyncOptions) -> None:
    """A record that is another's alias refers to that Person: known now, and kept as an import
    record (no items of its own) so a later sync that does not list the other resolves it too."""
    targets = {alias: known.ids[FileKind.PEOPLE].get(row) for alias, row in batch.aliases.items()
               if row not in known.failed[FileKind.PEOPLE]}
    targets.update(batch.adopted)
    stored = await by_key(spine.store, options.source, FileKind.PEOPLE, set(targets))
    changed = []
    for alias, pid in sorted(targets.items()):
        if pid is None:
            continue
        known.know(FileKind.PEOPLE, alias, pid, {})
        rec = stored.get(alias)
        if rec is None or rec.internal_id != pid or rec.item_keys:
            changed.append(ImportRecord(source=options.source, kind=FileKind.PEOPLE.value, external_id=alias,
                                        internal_id=pid, cells={"alias_of": pid}, created_at=known.now,
                                        updated_at=known.now))
    if changed and not options.dry_run:
        await spine.put_items([r.item() for r in changed])


async def _records(spine: Spine, kind: FileKind, part: KindBatch, options: SyncOptions) -> dict[str, ImportRecord]:
    """What the kind's rows are compared with: on a full sync all the source imported of it (what
    it no longer lists ends), less what earlier phases applied; else the records it names. A kind
    that never ends, applied by earlier phases already, needs only the records its rows name."""
    done = options.done.get(kind, set())
    if options.full and (kind in ENDS or not done):
        records = await records_of(spine.store, options.source, kind.value)
        return {e: r for e, r in records.items() if e not in done}
    return await by_key(spine.store, options.source, kind, {r.external_id for r in part.rows} | (part.ended - done))


async def _sync_kind(spine: Spine, kind: FileKind, batch: Batch, known: Known, options: SyncOptions,
                     report: SyncReport) -> None:
    part = batch[kind]
    raw = part.raw(kind)
    records = await _records(spine, kind, part, options)
    if kind == FileKind.PEOPLE:  # a row now that was another's alias before: its own Person from now on
        listed = {r.external_id for r in part.rows}
        records = {e: r for e, r in records.items() if not (is_alias(r) and e in listed)}
    for ext, rec in records.items():
        known.know(kind, ext, rec.internal_id, rec.cells)
    known.records = {kind: records}
    await learn_references(spine.store, known, kind, raw)
    parsed = parse_rows(raw, SPECS[kind], "US", unparsed_if(kind, records, known))
    del raw
    plan = await plan_file(spine.store, kind, parsed, known, sync=True)
    if not options.dry_run:
        await apply_plan(spine, plan)
    for file_report in plan.reports:
        file_report.file = ENTITY[kind]
        if kind == FileKind.PEOPLE:
            file_report.errors += [RowError(file=ENTITY[kind], line=0, column=c, reason=r)
                                   for c, r in batch.conflicts.values()]
            report.errors += [f"people {e}: {c}: {r}" for e, (c, r) in sorted(batch.conflicts.items())]
        report.errors += [f"{ENTITY[kind]} {part.external_id_at(e.line)}: {e.column}: {e.reason}"
                          for e in file_report.errors if e.line]
    report.errors += [f"{ENTITY[kind]} {record}: {reason}" for record, reason in part.unread]
    report.reports += plan.reports
    report.writes += plan.writes
