"""A webhook's change applied: the changed record fetched from Buildium and applied through the
same mapping and importer as a sync (desk.pms.buildium.mapping, desk.pms.run), as an incremental
sync of that one record, so every rule of `gateway import` holds here too.

Lease.* reads the lease and its tenants (a tenant MovedOut, or the lease gone Past, ends the role);
LeaseTenant.* the tenant (a new phone, consent), when the gateway knows them; Vendor.* the vendor;
Task.* / WorkOrder.* a status change on a task the gateway wrote (gateway.pms.buildium.writeback).
A lease, tenant or vendor Buildium no longer has (a *.Deleted, or a 404 on reading it) ends its
roles now, as a move-out does (nothing is deleted); a deleted rental or unit waits for the next
full sync."""
from __future__ import annotations

from desk.pms.batch import Batch
from desk.pms.buildium import mapping as m
from desk.pms.buildium.facts import Facts, apply_facts
from desk.pms.buildium.records import BuildiumWorkOrder, Lease, Tenant, Vendor
from desk.pms.consent import apply_consent
from desk.pms.inbox import InboxEvent
from desk.pms.people import Candidate
from desk.pms.run import SyncOptions, SyncReport, run_sync
from desk.portfolio.files import FileKind
from desk.portfolio.lookup import by_key
from desk.portfolio.record import records_of
from gateway.pms.buildium.client import BuildiumClient, BuildiumError
from gateway.pms.buildium.writeback import apply_task_status
from spine.repo import Spine


async def _apply(spine: Spine, batch: Batch, people: list[Candidate], organization: str) -> SyncReport:
    return await run_sync(spine, batch, people, SyncOptions(source=m.SOURCE, organization=organization, full=False))


async def _tenants(client: BuildiumClient, ids: list[int]) -> list[Tenant]:
    return [await client.get(f"/v1/leases/tenants/{t}", Tenant) for t in ids]


async def _lease(spine: Spine, client: BuildiumClient, lease_id: int, organization: str) -> SyncReport:
    lease = await client.get(f"/v1/leases/{lease_id}", Lease)
    batch = Batch()
    active = m.add_lease(batch, lease)
    tenants = await _tenants(client, sorted(active))
    report = await _apply(spine, batch, [m.tenant_candidate(t) for t in tenants], organization)
    await apply_consent(spine, m.SOURCE, m.consent_of(tenants))
    facts = Facts()
    facts.add_lease(lease)
    report.writes += await apply_facts(spine, facts, balances_read=False)
    return report


async def _tenant(spine: Spine, client: BuildiumClient, tenant_id: int, organization: str) -> SyncReport | None:
    ext = m.tenant_ext(tenant_id)
    if ext not in await by_key(spine.store, m.SOURCE, FileKind.PEOPLE, {ext}):
        return None  # not on a lease the gateway knows: their lease's event brings them
    tenant = await client.get(f"/v1/leases/tenants/{tenant_id}", Tenant)
    report = await _apply(spine, Batch(), [m.tenant_candidate(tenant)], organization)
    await apply_consent(spine, m.SOURCE, m.consent_of([tenant]))
    return report


async def _vendor(spine: Spine, client: BuildiumClient, vendor_id: int, organization: str) -> SyncReport:
    vendor = await client.get(f"/v1/vendors/{vendor_id}", Vendor)
    batch = Batch()
    properties = sorted(await records_of(spine.store, m.SOURCE, FileKind.PROPERTIES.value))
    candidate = m.add_vendor(batch, vendor, properties)
    return await _apply(spine, batch, [candidate] if candidate else [], organization)


GONE = frozenset({"Lease", "LeaseTenant", "Vendor"})  # what a deleted record's roles end for


async def _gone(spine: Spine, entity: str, ids: dict[str, int], organization: str) -> SyncReport | None:
    """The roles of a deleted lease (its residents), tenant (theirs: on the lease named, or every
    lease) or vendor (the vendor and its contact) ended, as an incremental sync told they ended."""
    batch = Batch()
    if entity == "Vendor" and "VendorId" in ids:
        batch[FileKind.VENDORS].end(m.vendor_ext(ids["VendorId"]))
        batch[FileKind.VENDOR_CONTACTS].end(m.vendor_ext(ids["VendorId"]))
    elif entity == "Lease" or "TenantId" in ids:  # a tenant's: on the lease named, else on every lease
        wanted = {k: ids[k] for k in (("LeaseId",) if entity == "Lease" else ("TenantId", "LeaseId")) if k in ids}
        residents = await records_of(spine.store, m.SOURCE, FileKind.RESIDENTS.value)  # rare: read whole
        for ext, rec in residents.items():
            if not rec.ended and m.resident_of(ext, rec.cells, wanted):
                batch[FileKind.RESIDENTS].end(ext)
    if not any(part.ended for part in batch.kinds.values()):
        return None
    return await _apply(spine, batch, [], organization)


async def apply_event(spine: Spine, client: BuildiumClient, event: InboxEvent, organization: str) -> SyncReport | None:
    """The event's change applied; None when there was nothing to apply."""
    entity, ids = event.name.split(".")[0], event.ids
    if event.name.endswith(".Deleted") and entity in GONE:
        return await _gone(spine, entity, ids, organization)
    try:
        if entity == "Lease" and "LeaseId" in ids:
            return await _lease(spine, client, ids["LeaseId"], organization)
        if entity == "LeaseTenant" and "TenantId" in ids:
            return await _tenant(spine, client, ids["TenantId"], organization)
        if entity == "Vendor" and "VendorId" in ids:
            return await _vendor(spine, client, ids["VendorId"], organization)
        if entity == "Task" and "TaskId" in ids:
            await apply_task_status(spine, client, ids["TaskId"])
        elif entity == "WorkOrder" and "WorkOrderId" in ids:
            order = await client.get(f"/v1/workorders/{ids['WorkOrderId']}", BuildiumWorkOrder)
            if order.Task is not None:
                await apply_task_status(spine, client, order.Task.Id)
    except BuildiumError as exc:
        if exc.status == 404:  # deleted in Buildium since the event
            return await _gone(spine, entity, ids, organization) if entity in GONE else None
        raise
    return None
