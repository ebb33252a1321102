"""`import_portfolio`: read a folder of the property-management system's CSV files, plan, and apply
unless told not to (--dry-run, or --strict with a failing row)."""
from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import phonenumbers
from pydantic import BaseModel

from desk.portfolio.apply import apply_plan
from desk.portfolio.file_check import check_file
from desk.portfolio.files import SPECS, FileKind, RawFile, parse_rows, read_raw
from desk.portfolio.known import Known, Progress
from desk.portfolio.lookup import learn_references, records_for
from desk.portfolio.oncall_check import judge_oncall_rows, note_planned
from desk.portfolio.planner import plan_file, unparsed_if
from desk.portfolio.record import ImportRecord, check_source, records_of
from desk.portfolio.report import FileReport, ImportReport, RowError
from spine.errors import SpineError
from spine.repo import Spine


class PortfolioError(SpineError):
    """An import that cannot start: no portfolio files in the folder, an unknown region."""


class ImportOptions(BaseModel):
    source: str = "pms"
    sync: bool = False
    dry_run: bool = False
    strict: bool = False
    default_region: str = "US"
    # Not a CLI option: the external ids are kept as internal ids, for a folder written in the
    # store's own ids (the demo portfolio, whose ids tests and docs name).
    keep_ids: bool = False


class ImportResult(BaseModel):
    report: ImportReport
    failed_rows: list[tuple[RowError, dict[str, str]]]
    writes: int  # store writes the plan holds (made unless dry-run or strict refused)


def portfolio_files(folder: Path) -> list[FileKind]:
    if not folder.is_dir():
        raise PortfolioError(f"{folder} is not a folder")
    kinds = [kind for kind in FileKind if (folder / kind.filename).is_file()]
    if not kinds:
        raise PortfolioError(f"no portfolio files in {folder} (any of {', '.join(k.filename for k in FileKind)})")
    return kinds


async def import_portfolio(spine: Spine, folder: Path, options: ImportOptions | None = None, *,
                           today: date | None = None, now: datetime | None = None,
                           progress: Progress | None = None) -> ImportResult:
    """File by file, in dependency order, each applied once planned (so only one file's rows are
    held at a time); --strict plans every file first and applies in a second pass only if none failed."""
    options = options or ImportOptions()
    check_source(options.source)
    region = options.default_region.upper()
    if region not in phonenumbers.SUPPORTED_REGIONS:
        raise PortfolioError(f"--default-region {options.default_region!r} is not a region code (US, GB, MX ...)")
    now = now or spine.clock()
    kinds = portfolio_files(folder)
    if options.strict and not options.dry_run:
        checked = await _run(spine, folder, kinds, options, region, Known(options.source, today or now.date(), now, keep_ids=options.keep_ids),
                             apply=False)
        if checked.report.failed:
            return checked
    known = Known(options.source, today or now.date(), now, keep_ids=options.keep_ids)
    if progress is not None:
        known.progress = progress
    return await _run(spine, folder, kinds, options, region, known, apply=not options.dry_run)


async def _learn(spine: Spine, known: Known, kind: FileKind, raw: RawFile, records: dict[str, ImportRecord]) -> None:
    """The file's records, and every row its rows (and on-call records) refer to, made known."""
    for ext, rec in records.items():
        known.know(kind, ext, rec.internal_id, rec.cells)
    known.records = {kind: records}
    named = RawFile(raw.header, raw.rows + [(0, r.cells) for r in records.values()]) if kind == FileKind.ONCALL else raw
    await learn_references(spine.store, known, kind, named)  # a reference may name a row imported before


async def _run(spine: Spine, folder: Path, kinds: list[FileKind], options: ImportOptions, region: str, known: Known,
               *, apply: bool) -> ImportResult:
    result = ImportResult(report=ImportReport(applied=apply), failed_rows=[], writes=0)
    # Every file is read whole and checked before any applies: a bad one is a FILE error, not a
    # traceback after the files before it applied (the others still apply, as for a missing column).
    unreadable = {kind: error for kind in kinds if (error := check_file(folder / kind.filename)) is not None}
    for kind in kinds:
        if kind in unreadable:
            result.report.files.append(FileReport(file=kind.filename, errors=[unreadable[kind]]))
            continue
        raw = read_raw(folder / kind.filename)
        records = await records_for(spine.store, options.source, kind, raw, sync=options.sync)
        await _learn(spine, known, kind, raw, records)
        parsed = parse_rows(raw, SPECS[kind], region, unparsed_if(kind, records, known))
        if kind == FileKind.ONCALL and parsed.rows and not options.sync:
            # A changed on-call row rewrites its property's plan, which is all of that plan's rows.
            await _learn(spine, known, kind, raw, await records_of(spine.store, options.source, kind.value))
        del raw
        if kind == FileKind.ONCALL:
            await judge_oncall_rows(spine, parsed, known)
        plan = await plan_file(spine.store, kind, parsed, known, sync=options.sync)
        note_planned(kind, plan.items, known)
        if apply:
            await apply_plan(spine, plan)
        known.progress(kind, len(parsed.rows) + len(parsed.same), len(parsed.rows) + len(parsed.same))
        result.report.files += plan.reports
        result.failed_rows += plan.failed
        result.writes += plan.writes
    return result
