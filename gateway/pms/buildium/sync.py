"""A Buildium sync: its records read page by page (gateway.pms.buildium.client), mapped to the
portfolio import's rows (desk.pms.buildium.mapping) and applied by the importer (desk.pms.run).

A full sync reads the account's current records (active rentals and vendors, Active and Future
leases and their tenants) and ends what it no longer lists. An incremental one reads what changed
since the last sync started (`lastupdatedfrom`, every status, so a lease gone Past or a vendor made
inactive is seen and ends)."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from desk.pms.batch import Batch
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
from desk.pms.paged import PagedSync
from desk.pms.people import Candidate
from desk.pms.run import SyncOptions, SyncReport
from desk.pms.state import load_links, load_state, save_state
from desk.portfolio.files import FileKind
from desk.portfolio.lookup import by_key
from desk.portfolio.record import records_of
from gateway.pms.buildium.client import BadRecord, BuildiumClient, Params
from spine.property import Organization
from spine.repo import Spine

SYSTEM = "buildium"
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


@dataclass
class _Read:
    consent: list[tuple[str, bool]] = field(default_factory=list)
    facts: Facts = field(default_factory=Facts)


Pages = asyncio.Queue[Batch | None]  # pages of rows, as read; None after the last
People = asyncio.Queue[list[Candidate] | None]


async def _rentals(client: BuildiumClient, spine: Spine, batch: Batch, since: Params, full: bool) -> list[str]:
    """The rentals' rows (into `batch`); the external ids of every property of the account."""
    links = {int(k): m.PropertyLink.model_validate(v) for k, v in (await load_links(spine.store, SYSTEM)).items()}
    rentals: set[str] = set() if full else set(await records_of(spine.store, m.SOURCE, FileKind.PROPERTIES.value))
    async for page, bad in client.pages("/v1/rentals", Rental, {"status": "Active"} if full else since):
        _unread(batch, FileKind.PROPERTIES, bad)
        for rental in page:
            batch[FileKind.PROPERTIES].add(m.property_row(rental, links.get(rental.Id)))
            rentals.add(m.rental_ext(rental.Id))
    return sorted(rentals)


async def _units(client: BuildiumClient, batch: Batch, since: Params, rentals: asyncio.Task[list[str]],
                 places: Pages) -> None:
    """The units a page at a time into `places`, the rentals' rows with the first (units name them)."""
    listings: dict[int, Listing] = {}
    async for lpage, _ in client.pages("/v1/rentals/units/listings", Listing):
        listings.update({lst.Unit.Id: lst for lst in lpage if lst.Unit})
    await rentals  # read beside the listings: their rows go first, with the first units (which name them)
    page = Batch()
    page[FileKind.PROPERTIES].rows, batch[FileKind.PROPERTIES].rows = batch[FileKind.PROPERTIES].rows, []
    async for upage, bad in client.pages("/v1/rentals/units", RentalUnit, since):
        _unread(batch, FileKind.UNITS, bad)
        page[FileKind.UNITS].rows = [m.unit_row(unit, listings.get(unit.Id)) for unit in upage]
        await places.put(page)
        page = Batch()
    if page[FileKind.PROPERTIES].rows:  # no units read
        await places.put(page)
    await places.put(None)


async def _people(client: BuildiumClient, spine: Spine, batch: Batch, since: Params, full: bool, read: _Read,
                  pages: People) -> None:
    """The leases' resident rows (into `batch`), then the tenants, a page of candidates at a time
    into `pages` (None after the last)."""
    leases: Params = {"leasestatuses": ["Active", "Future"]} if full else since
    active: set[int] = set()
    async for page, bad in client.pages("/v1/leases", Lease, leases):
        _unread(batch, FileKind.RESIDENTS, bad)
        for lease in page:
            active |= m.add_lease(batch, lease)
            read.facts.add_lease(lease)
    tenants: Params = {"leasetermstatuses": ["Active", "Future"]} if full else since
    async for tpage, bad in client.pages("/v1/leases/tenants", Tenant, tenants):
        _unread(batch, FileKind.PEOPLE, bad)
        known = set() if full else set(await by_key(spine.store, m.SOURCE, FileKind.PEOPLE,
                                                     {m.tenant_ext(t.Id) for t in tpage}))
        kept = [t for t in tpage if t.Id in active or m.tenant_ext(t.Id) in known]
        read.consent += m.consent_of(kept)
        await pages.put(sorted((m.tenant_candidate(t) for t in kept), key=lambda c: c.row.external_id))
    await pages.put(None)


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
                   rentals: asyncio.Task[list[str]]) -> list[Candidate]:
    properties = await rentals  # a vendor serves every property of the account
    vendors: list[Candidate] = []
    async for page, bad in client.pages("/v1/vendors", Vendor, {"status": "Active"} if full else since):
        _unread(batch, FileKind.VENDORS, bad)
        vendors += [c for v in page if (c := m.add_vendor(batch, v, properties)) is not None]
    return sorted(vendors, key=lambda c: c.row.external_id)


async def _apply_pages(paged: PagedSync, places: Pages, people: People) -> None:
    """The places' pages, then the people's (their roles name the places), each as it comes."""
    while (page := await places.get()) is not None:
        await paged.apply(page, [])
    while (found := await people.get()) is not None:
        await paged.apply(paged.residents_of(found), found)


async def _read_and_apply(spine: Spine, client: BuildiumClient, options: SyncOptions, since: Params,
                          read: _Read) -> SyncReport:
    """Reading and applying overlap: every list is read from the start, side by side under the one
    rate limit, and each page of units or tenants (with the resident rows naming them) is applied
    as it comes, while the rest is read; the vendors, and the ends, once all is read
    (desk.pms.paged). A queue holds one page: reading waits for applying, few pages in memory."""
    batch, full = Batch(), options.full
    paged = PagedSync(spine, batch, options)
    places: Pages = asyncio.Queue(maxsize=1)
    people: People = asyncio.Queue(maxsize=1)
    try:
        async with asyncio.TaskGroup() as tasks:
            rentals = tasks.create_task(_rentals(client, spine, batch, since, full))
            tasks.create_task(_units(client, batch, since, rentals, places))
            tasks.create_task(_people(client, spine, batch, since, full, read, people))
            vendors = tasks.create_task(_vendors(client, batch, since, full, rentals))
            tasks.create_task(_facts(client, read.facts, full))
            tasks.create_task(_apply_pages(paged, places, people))
    except ExceptionGroup as failed:  # the first failure, as the callers know it (BuildiumError ...)
        raise failed.exceptions[0] from failed
    return await paged.finish(vendors.result())


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
