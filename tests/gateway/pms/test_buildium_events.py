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
