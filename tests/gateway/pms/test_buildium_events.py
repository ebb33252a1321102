"""Each kind of Buildium event fetches its record and applies it: a vendor made inactive, a tenant's
SMS consent, a task's status set in Buildium."""
from __future__ import annotations

import spine.keys as keys
from desk.pms import inbox
from desk.pms import writeback as w
from gateway.pms.buildium.sync import SYSTEM
from gateway.pms.buildium.worker import BuildiumWorker
from spine.context import Channel
from spine.identity import utcnow
from spine.work import WorkOrder, WorkOrderStatus
from tests.support.buildium_webhook_helpers import ORG


async def _work(spine, client, name: str, **ids: int) -> None:
    event = inbox.InboxEvent(system=SYSTEM, event_id=f"{name}-{ids}", name=name, ids=ids, received_at=utcnow())
    assert await inbox.accept(spine, event)
    assert await BuildiumWorker(spine, client, ORG, poll_s=300).work_event(event)


async def test_vendor_made_inactive_ends_the_contact_role(synced, stub, client):
    next(v for v in stub.account.vendors if v["Id"] == 7002)["IsActive"] = False
    await _work(synced, client, "Vendor.Updated", VendorId=7002)
    items = await synced.store.query(keys.person("p_buildium_vendor-7002"), keys.ROLE_PREFIX)
    assert [(i.data["role_type"], i.data["active"]) for i in items] == [("vendor_contact", False)]


async def test_a_tenant_opted_out_in_buildium_gets_no_started_texts(synced, stub, client):
    assert not await synced.is_opted_out("+12535551001", Channel.SMS)
    stub.account.tenant(5001)["SMSOptInStatus"] = "OptedOut"
    await _work(synced, client, "LeaseTenant.Updated", TenantId=5001)
    assert await synced.is_opted_out("+12535551001", Channel.SMS)
    assert not await synced.is_opted_out("+12535551001", Channel.SMS, reply=True)
    stub.account.tenant(5001)["SMSOptInStatus"] = "OptedIn"
    await _work(synced, client, "LeaseTenant.Updated", TenantId=5001, AccountId=2)
    assert not await synced.is_opted_out("+12535551001", Channel.SMS)


async def test_task_updated_in_buildium_moves_the_work_order(synced, stub, client):
    wo = WorkOrder(id="wo_5", display_id="WO-5", property_id="prop_buildium_rental-101",
                   unit_id="u_buildium_unit-1001", brief="sink", created_by_person_id="p_buildium_tenant-5001")
    await synced.put_work_order(wo)
    wb = await w.queue_write_back(synced, wo)
    await BuildiumWorker(synced, client, ORG, poll_s=300).tick()
    stub.account.tasks[0]["TaskStatus"] = "InProgress"
    await _work(synced, client, "Task.Updated", TaskId=stub.account.tasks[0]["Id"])
    assert (await synced.get_work_order(wo.id)).status == WorkOrderStatus.IN_PROGRESS
    assert (await w.load(synced, SYSTEM, wb.work_order_id)).status_from_pms == "InProgress"


async def _roles(spine, pid: str) -> list[tuple[str, str, bool]]:
    items = await spine.store.query(keys.person(pid), keys.ROLE_PREFIX)
    return sorted((i.data["role_type"], i.data["scope"].get("unit_id") or "", i.data["active"]) for i in items)


async def test_a_deleted_lease_ends_its_roles_at_the_webhook(synced, stub, client):
    stub.account.leases.remove(stub.account.lease(3004))  # Noah's
    await _work(synced, client, "Lease.Deleted", LeaseId=3004)
    assert await _roles(synced, "p_buildium_tenant-5007") == [("tenant", "u_buildium_unit-1005", False)]
    assert await synced.get_person("p_buildium_tenant-5007") is not None  # nothing deleted
    assert ("tenant", "u_buildium_unit-1001", True) in await _roles(synced, "p_buildium_tenant-5001")


async def test_a_deleted_tenant_ends_their_roles_and_only_theirs(synced, stub, client):
    await _work(synced, client, "LeaseTenant.Deleted", TenantId=5001)
    assert await _roles(synced, "p_buildium_tenant-5001") == [("tenant", "u_buildium_unit-1001", False)]
    assert ("tenant", "u_buildium_unit-1001", True) in await _roles(synced, "p_buildium_tenant-5002")  # Luis stays


async def test_a_vendor_buildium_no_longer_has_ends_at_its_event(synced, stub, client):
    stub.account.vendors.remove(next(v for v in stub.account.vendors if v["Id"] == 7002))
    await _work(synced, client, "Vendor.Updated", VendorId=7002)  # its GET is a 404
    assert await _roles(synced, "p_buildium_vendor-7002") == [("vendor_contact", "", False)]
    vendor = await synced.store.get(keys.vendor("v_buildium_vendor-7002"), keys.ITEM)
    assert vendor is not None and vendor.data["active"] is False
