"""`gateway import DIR`: a portfolio from the property-management system's CSV export, and
`gateway export DIR`: what a source imported, as the same files."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from desk.portfolio.export import export_portfolio
from desk.portfolio.files import SPECS, FileKind
from desk.portfolio.record import InvalidSource
from desk.portfolio.report import write_errors_csv
from desk.portfolio.run import ImportOptions, PortfolioError, import_portfolio
from gateway.cli.common import open_spine, open_spine_for_writing
from gateway.cli.progress import file_progress
from gateway.settings import Settings


def _files_help() -> str:
    lines = ["files (UTF-8 CSV with a header row; other columns are ignored; * required):"]
    for kind in FileKind:
        columns = ", ".join(c.name + ("*" if c.required else "") for c in SPECS[kind].columns)
        lines.append(f"  {kind.filename:<20} {columns}")
    lines.append("Phones become E.164 (--default-region), dates are YYYY-MM-DD, lists are ';'-separated.")
    lines.append("Each file prints 'FILE: C created, U updated, S unchanged, E ended, X errors'; each bad row")
    lines.append("'FILE:LINE: COLUMN: reason'. The exit status is 1 when any row failed.")
    return "\n".join(lines)


def register(sub) -> None:
    p = sub.add_parser("import", help="import a portfolio (CSV files from the property-management system)",
                       description="Upsert a portfolio keyed by (source, external_id): a second import of the "
                                   "same files changes nothing.", epilog=_files_help(),
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir", type=Path, help="the folder holding the CSV files")
    p.add_argument("--dry-run", action="store_true", help="write nothing; print what would change")
    p.add_argument("--sync", action="store_true",
                   help="end what the files no longer list: resident roles (a move-out), staff roles, vendor "
                        "contacts, on-call rows; units and vendors become inactive. Nothing is deleted")
    p.add_argument("--source", default="pms", help="the system the files come from (default: pms)")
    p.add_argument("--strict", action="store_true", help="apply nothing when any row fails")
    p.add_argument("--errors-csv", type=Path, metavar="FILE", help="write the failing rows here, with a reason")
    p.add_argument("--default-region", default="US", help="region of phone numbers without +country (default: US)")
    p.set_defaults(func=run_import)
    e = sub.add_parser("export", help="write what a source imported, as the same CSV files")
    e.add_argument("dir", type=Path, help="the folder to write the CSV files to")
    e.add_argument("--source", default="pms", help="the source whose rows to export (default: pms)")
    e.set_defaults(func=run_export)


async def run_import(args) -> int:
    options = ImportOptions(source=args.source, sync=args.sync, dry_run=args.dry_run, strict=args.strict,
                            default_region=args.default_region)
    settings = Settings.from_env()
    spine = open_spine(settings) if args.dry_run else await open_spine_for_writing(settings)
    try:
        with file_progress() as progress:
            result = await import_portfolio(spine, args.dir, options, progress=progress)
    except (PortfolioError, InvalidSource) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        await spine.store.close()
    report = result.report
    for line in report.lines():
        print(line)
    if args.errors_csv is not None:
        write_errors_csv(args.errors_csv, result.failed_rows)
    if args.dry_run:
        print(f"dry run: nothing written ({result.writes} writes planned)")
    elif not report.applied:
        print("strict: nothing written, since a row failed")
    return 1 if report.failed else 0


async def run_export(args) -> int:
    settings = Settings.from_env()
    spine = open_spine(settings, read_only=True)
    try:
        written = await export_portfolio(spine.store, args.dir, args.source)
    except InvalidSource as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    finally:
        await spine.store.close()
    for kind, count in written.items():
        print(f"{kind.filename}: {count} rows")
    if not written:
        print(f"source {args.source!r} has imported nothing", file=sys.stderr)
    return 0
