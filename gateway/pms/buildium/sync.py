"""A Buildium sync: its records read page by page (gateway.pms.buildium.client), mapped to the
portfolio import's rows (desk.pms.buildium.mapping) and applied by the importer (desk.pms.run).

A full sync reads the account's current records (active rentals and vendors, Active and Future
leases and their tenants) and ends what it no longer lists. An incremental one reads what changed
since the last sync started (`lastupdatedfrom`, every status, so a lease gone Past or a vendor made
inactive is seen and ends)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta

from desk.pms.batch import ENTITY, Batch
from desk.pms.buildium import mapping as m
from desk.pms.buildium.facts import Facts, apply_facts
from desk.pms.buildium.records import (
    Lease,
    LeaseRenewal,
    Listing,
    OutstandingBalance,
    Rental,
    RentalAppliance,
    RentalUnit,
    Tenant,
    Vendor,
)
from desk.pms.consent import apply_consent
from desk.pms.people import Candidate
from desk.pms.run import SyncOptions, SyncReport, run_sync
from desk.pms.state import load_links, load_state, save_state
from desk.portfolio.files import FileKind
from desk.portfolio.lookup import by_key
from desk.portfolio.record import records_of
from gateway.pms.buildium.client import BadRecord, BuildiumClient, Params
from spine.property import Organization
from spine.repo import Spine

SYSTEM = "buildium"
PLACES = frozenset({FileKind.PROPERTIES, FileKind.UNITS})
PEOPLE_KINDS = frozenset(ENTITY) - PLACES
OVERLAP = timedelta(minutes=5)  # an incremental sync reads a little before the last start: clocks differ


@dataclass
class SyncRun:
    report: SyncReport
    full: bool
    requests: int
    seconds: float


def _since(at: datetime | None) -> Params:
    return {"lastupdatedfrom": (at - OVERLAP).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")} if at else {}


def _unread(batch: Batch, kind: FileKind, bad: list[BadRecord]) -> None:
    batch[kind].unread += [(f"{b.path} Id {b.record_id}", b.reason) for b in bad]


async def _places(client: BuildiumClient, spine: Spine, batch: Batch, since: Params, full: bool) -> list[str]:
    """Rentals and units; the external ids of every property of the account (vendors serve them all)."""
    links = {int(k): m.PropertyLink.model_validate(v) for k, v in (await load_links(spine.store, SYSTEM)).items()}
    rentals: set[str] = set() if full else set(await records_of(spine.store, m.SOURCE, FileKind.PROPERTIES.value))
    async for page, bad in client.pages("/v1/rentals", Rental, {"status": "Active"} if full else since):
        _unread(batch, FileKind.PROPERTIES, bad)
        for rental in page:
            batch[FileKind.PROPERTIES].add(m.property_row(rental, links.get(rental.Id)))
            rentals.add(m.rental_ext(rental.Id))
    listings: dict[int, Listing] = {}
    async for lpage, _ in client.pages("/v1/rentals/units/listings", Listing):
        listings.update({lst.Unit.Id: lst for lst in lpage if lst.Unit})
    async for upage, bad in client.pages("/v1/rentals/units", RentalUnit, since):
        _unread(batch, FileKind.UNITS, bad)
        for unit in upage:
            batch[FileKind.UNITS].add(m.unit_row(unit, listings.get(unit.Id)))
    return sorted(rentals)


async def _people(client: BuildiumClient, spine: Spine, batch: Batch, since: Params, full: bool,
                  consent: list[tuple[str, bool]], facts: Facts) -> list[Candidate]:
    leases: Params = {"leasestatuses": ["Active", "Future"]} if full else since
    active: set[int] = set()
    async for page, bad in client.pages("/v1/leases", Lease, leases):
        _unread(batch, FileKind.RESIDENTS, bad)
        for lease in page:
            active |= m.add_lease(batch, lease)
            facts.add_lease(lease)
    tenants: Params = {"leasetermstatuses": ["Active", "Future"]} if full else since
    found: list[Candidate] = []
    async for tpage, bad in client.pages("/v1/leases/tenants", Tenant, tenants):
        _unread(batch, FileKind.PEOPLE, bad)
        known = set() if full else set(await by_key(spine.store, m.SOURCE, FileKind.PEOPLE,
                                                     {m.tenant_ext(t.Id) for t in tpage}))
        kept = [t for t in tpage if t.Id in active or m.tenant_ext(t.Id) in known]
        found += [m.tenant_candidate(t) for t in kept]
        consent += m.consent_of(kept)
    return sorted(found, key=lambda c: c.row.external_id)


RENEWAL_OFFERED = ["NotSent", "ProcessingRequest", "AwaitingSignatures"]  # offered, not yet signed


async def _facts(client: BuildiumClient, facts: Facts, full: bool) -> None:
    """Balances every sync (the list has no change filter; it is short: leases that owe);
    renewals and appliances on a full sync (a Lease.* webhook brings a lease's own change)."""
    async for bpage, _ in client.pages("/v1/leases/outstandingbalances", OutstandingBalance):
        for balance in bpage:
            facts.add_balance(balance)
    if not full:
        return
    async for rpage, _ in client.pages("/v1/leases/renewals", LeaseRenewal, {"esignaturestatuses": RENEWAL_OFFERED}):
        for renewal in rpage:
            facts.add_renewal(renewal)
    async for apage, _ in client.pages("/v1/rentals/appliances", RentalAppliance):
        for appliance in apage:
            facts.add_appliance(appliance)


async def _vendors(client: BuildiumClient, batch: Batch, since: Params, full: bool,
                   properties: list[str]) -> list[Candidate]:
    vendors: list[Candidate] = []
    async for page, bad in client.pages("/v1/vendors", Vendor, {"status": "Active"} if full else since):
        _unread(batch, FileKind.VENDORS, bad)
        vendors += [c for v in page if (c := m.add_vendor(batch, v, properties)) is not None]
    return sorted(vendors, key=lambda c: c.row.external_id)


@dataclass
class _Read:
    consent: list[tuple[str, bool]] = field(default_factory=list)
    facts: Facts = field(default_factory=Facts)


async def _read_and_apply(spine: Spine, client: BuildiumClient, options: SyncOptions, since: Params,
                          read: _Read) -> SyncReport:
    """Reading and applying overlap: the places are applied while the leases, tenants, vendors and
    facts are read (most of the requests), the lists read side by side under the one rate limit.
    A dry run applies in one phase (the people's rows resolve units the first phase would write)."""
    batch, full = Batch(), options.full
    properties = await _places(client, spine, batch, since, full)
    placed = None if options.dry_run else asyncio.create_task(
        run_sync(spine, batch, [], replace(options, kinds=PLACES)))
    try:
        people, vendors, _ = await asyncio.gather(
            _people(client, spine, batch, since, full, read.consent, read.facts),
            _vendors(client, batch, since, full, properties), _facts(client, read.facts, full))
        report = await placed if placed else SyncReport()
    finally:
        if placed and not placed.done():
            placed.cancel()
    rest = replace(options, kinds=None if options.dry_run else PEOPLE_KINDS)
    return report.merge(await run_sync(spine, batch, people + vendors, rest))


async def sync(spine: Spine, client: BuildiumClient, *, organization: str, full: bool | None = None,
               dry_run: bool = False, now: datetime | None = None) -> SyncRun:
    """One sync (full when asked, or when none ran before), its state saved unless dry-run."""
    started = now or datetime.now(UTC)
    state = await load_state(spine.store, SYSTEM)
    full = full or state.last_full_at is None
    since = {} if full else _since(state.changes_since)
    before = client.requests
    if not dry_run and await spine.get_org(organization) is None:
        await spine.put_org(Organization(id=organization, name="Buildium"))
    read = _Read()
    options = SyncOptions(source=m.SOURCE, organization=organization, full=full, dry_run=dry_run)
    report = await _read_and_apply(spine, client, options, since, read)
    if not dry_run:
        report.writes += await apply_facts(spine, read.facts)
    run = SyncRun(report=report, full=full, requests=client.requests - before,
                  seconds=(datetime.now(UTC) - started).total_seconds())
    if not dry_run:
        await apply_consent(spine, SYSTEM, read.consent)
        state.last_full_at = started if full else state.last_full_at
        state.last_incremental_at = started if not full else state.last_incremental_at
        state.changes_since = started
        state.counts, state.requests = report.counts(), run.requests
        state.errors, state.error_count = report.errors[:50], len(report.errors)
        await save_state(spine.store, state)
    return run
