"""`import_portfolio`: read a folder of the property-management system's CSV files, plan, and apply
unless told not to (--dry-run, or --strict with a failing row)."""
from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import phonenumbers
from pydantic import BaseModel

from spine.errors import SpineError
from spine.portfolio.apply import apply_plan
from spine.portfolio.files import SPECS, FileKind, ParsedFile, read_rows
from spine.portfolio.planner import plan_import
from spine.portfolio.record import check_source
from spine.portfolio.report import ImportReport, RowError
from spine.repo import Spine


class PortfolioError(SpineError):
    """An import that cannot start: no portfolio files in the folder, an unknown region."""


class ImportOptions(BaseModel):
    source: str = "pms"
    sync: bool = False
    dry_run: bool = False
    strict: bool = False
    default_region: str = "US"


class ImportResult(BaseModel):
    report: ImportReport
    failed_rows: list[tuple[RowError, dict[str, str]]]
    writes: int  # store writes the plan holds (made unless dry-run or strict refused)


def read_folder(folder: Path, region: str) -> dict[FileKind, ParsedFile]:
    if not folder.is_dir():
        raise PortfolioError(f"{folder} is not a folder")
    files = {kind: read_rows(folder / kind.filename, SPECS[kind], region) for kind in FileKind
             if (folder / kind.filename).is_file()}
    if not files:
        raise PortfolioError(f"no portfolio files in {folder} (any of {', '.join(k.filename for k in FileKind)})")
    return files


async def import_portfolio(spine: Spine, folder: Path, options: ImportOptions | None = None, *,
                           today: date | None = None, now: datetime | None = None) -> ImportResult:
    options = options or ImportOptions()
    source = check_source(options.source)
    region = options.default_region.upper()
    if region not in phonenumbers.SUPPORTED_REGIONS:
        raise PortfolioError(f"--default-region {options.default_region!r} is not a region code (US, GB, MX ...)")
    now = now or datetime.now(UTC)
    files = read_folder(folder, region)
    plan = await plan_import(spine.store, files, source=source, sync=options.sync, today=today or now.date(), now=now)
    report = ImportReport(files=plan.reports)
    report.applied = not options.dry_run and not (options.strict and report.failed)
    if report.applied:
        await apply_plan(spine, plan)
    return ImportResult(report=report, failed_rows=plan.failed, writes=plan.writes)
