"""`gateway buildium sync|link|status` (ARCHITECTURE.md, "Buildium, the property-management system
of record"; docs/pms.md). With BUILDIUM_CLIENT_ID unset, `sync` and `link` refuse and do nothing."""
from __future__ import annotations

import argparse
import sys

from desk.pms.batch import Batch
from desk.pms.buildium import mapping as m
from desk.pms.buildium.records import Rental
from desk.pms.run import SyncOptions, run_sync
from desk.pms.state import save_link
from desk.pms.status import current_state
from desk.portfolio import fields
from desk.portfolio.files import FileKind
from gateway.cli.common import fail, open_spine, open_spine_for_writing
from gateway.pms.buildium.client import BuildiumClient, BuildiumError
from gateway.pms.buildium.sync import SYSTEM, sync
from gateway.settings import Settings
from spine.phone import normalize_phone_in_region


def register(sub) -> None:
    p = sub.add_parser("buildium", help="sync the Buildium account (properties, units, tenants, vendors)",
                       description="Buildium, the property-management system of record (docs/pms.md).")
    actions = p.add_subparsers(dest="action", required=True)
    s = actions.add_parser("sync", help="pull the account (incremental after the first full sync)")
    s.add_argument("--full", action="store_true", help="read the whole account; what it no longer lists ends")
    s.add_argument("--dry-run", action="store_true", help="write nothing; print what would change")
    s.set_defaults(func=run_sync_command)
    link = actions.add_parser("link", help="the gateway's side of a synced property (kept across syncs)")
    link.add_argument("rental_id", type=int, metavar="RENTAL_ID")
    link.add_argument("--phone", required=True, help="its Twilio number (E.164)")
    link.add_argument("--email", help="its inbound address")
    link.add_argument("--timezone", help="its IANA zone (default America/Los_Angeles)")
    link.set_defaults(func=run_link)
    status = actions.add_parser("status", help="last syncs, counts, errors, webhooks, write-backs")
    status.set_defaults(func=run_status)


def _client(settings: Settings) -> BuildiumClient | None:
    if not settings.buildium_client_id or not settings.buildium_client_secret:
        print("error: BUILDIUM_CLIENT_ID and BUILDIUM_CLIENT_SECRET are not set (docs/pms.md)", file=sys.stderr)
        return None
    return BuildiumClient(settings.buildium_api_base, settings.buildium_client_id, settings.buildium_client_secret)


async def run_sync_command(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    client = _client(settings)
    if client is None:
        return 2
    spine = open_spine(settings) if args.dry_run else await open_spine_for_writing(settings)
    try:
        run = await sync(spine, client, organization=settings.buildium_organization, full=args.full or None,
                         dry_run=args.dry_run)
    except BuildiumError as exc:
        return fail(f"Buildium: {exc}", 1)
    finally:
        await client.aclose()
        await spine.store.close()
    for line in run.report.lines():
        print(line)
    kind = "full" if run.full else "incremental"
    print(f"{kind} sync: {run.requests} requests in {run.seconds:.1f} s"
          + (f"; dry run: nothing written ({run.report.writes} writes planned)" if args.dry_run else ""))
    return 1 if run.report.failed else 0


async def run_link(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    try:
        link = m.PropertyLink(rental_id=args.rental_id, phone=normalize_phone_in_region(args.phone, "US"),
                              email=fields.email(args.email) if args.email else None,
                              timezone=fields.timezone(args.timezone) if args.timezone else None)
    except ValueError as exc:
        return fail(str(exc))
    client = _client(settings)
    if client is None:
        return 2
    spine = await open_spine_for_writing(settings)
    try:
        rental = await client.get(f"/v1/rentals/{args.rental_id}", Rental)
        await save_link(spine.store, SYSTEM, str(args.rental_id), link)
        batch = Batch()
        batch[FileKind.PROPERTIES].add(m.property_row(rental, link))
        report = await run_sync(spine, batch, [], SyncOptions(source=m.SOURCE, organization=settings.buildium_organization,
                                                              full=False))
    except BuildiumError as exc:
        return fail(f"Buildium: {exc}", 1)
    finally:
        await client.aclose()
        await spine.store.close()
    for line in report.lines()[:1] if report.failed else []:
        print(line)
    print(f"rental {args.rental_id} ({rental.Name}) -> {m.SOURCE} property prop_buildium_{m.rental_ext(rental.Id)}: "
          f"phone {link.phone}" + (f", email {link.email}" if link.email else ""))
    return 1 if report.failed else 0


async def run_status(args: argparse.Namespace) -> int:
    settings = Settings.from_env()
    if not settings.buildium_client_id:
        print("buildium: not configured (BUILDIUM_CLIENT_ID is not set)")
        return 0
    spine = open_spine(settings, read_only=True)
    try:
        state = await current_state(spine, SYSTEM)
    finally:
        await spine.store.close()
    print(state.line())
    for entity, counts in state.counts.items():
        print(f"  {entity}: " + ", ".join(f"{v} {k}" for k, v in counts.items()))
    print(f"  last sync: {state.requests} requests")
    for error in state.errors:
        print(f"  error: {error}")
    return 0
