"""Write-back to Buildium exactly once: a tenant's work order becomes one resident request task even
when the create's answer is lost, a vendor assignment its work order, notes and the ETA a Message;
a status change made in Buildium changes the work order and queues the tenant's notice. And
Buildium's SMS consent: OptedOut stops started texts, not replies."""
from __future__ import annotations

from datetime import timedelta

import spine.keys as keys
from desk.outbound.queue import queue_outbound
from desk.pms import writeback as w
from gateway.cli.sms import send_sms
from gateway.pms.buildium.worker import WRITE_EVERY_S, BuildiumWorker
from gateway.pms.buildium.writeback import apply_task_status, write_one
from spine.context import Channel
from spine.identity import utcnow
from spine.notification import NotificationKind, NotificationStatus, OutboundRequest
from spine.records import EventKind
from spine.repo import Spine
from spine.work import WorkOrder, WorkOrderNote, WorkOrderStatus
from tests.support.buildium_webhook_helpers import ALDER, ORG, buildium_settings
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, PUBLIC_URL, OfflinePool
from tests.support.store_fixtures import WriterFirst

DANA, MEI = "p_buildium_tenant-5001", "p_buildium_tenant-5003"


def ticker(worker: BuildiumWorker):
    """The worker's tick, each call WRITE_EVERY_S after the last (write-backs are looked at that often)."""
    at = [utcnow()]

    async def tick() -> None:
        at[0] += timedelta(seconds=WRITE_EVERY_S)
        await worker.tick(at[0])
    return tick


async def _work_order(spine, number: int = 9001, person: str = DANA) -> WorkOrder:
    wo = WorkOrder(id=f"wo_{number}", display_id=f"WO-{number}", property_id="prop_buildium_rental-101",
                   unit_id="u_buildium_unit-1001", brief="kitchen sink dripping", description="dripping for a week",
                   priority="urgent", created_by_person_id=person)
    await spine.put_work_order(wo)
    return wo


async def test_a_lost_answer_never_makes_a_second_task(synced, stub, client):
    wo = await _work_order(synced)
    wb = await w.queue_write_back(synced, wo)
    assert wb is not None and (wb.lease_id, wb.tenant_id) == (3001, 5001)
    assert await w.queue_write_back(synced, wo) is None  # once per work order
    tick = ticker(BuildiumWorker(synced, client, ORG, poll_s=300))
    stub.lose_next_create = True
    await tick()  # created in Buildium, the answer lost: in doubt
    assert len(stub.account.tasks) == 1 and (await w.load(synced, "buildium", wo.id)).in_doubt
    await tick()  # looked up, found, not created again
    await tick()
    [task] = stub.account.tasks
    assert task["Title"] == "WO-9001: kitchen sink dripping" and task["Priority"] == "High"
    assert task["UnitAgreement"]["Id"] == 3001 and stub.requests[-2:] == [("POST", "/v1/tasks/residentrequests"), ("GET", "/v1/tasks/residentrequests?unitagreementid=3001&limit=1000&offset=0")]
    stored = await w.load(synced, "buildium", wo.id)
    assert stored.task_id == task["Id"] and stored.state == "written" and not stored.in_doubt
    linked = (await synced.get_work_order(wo.id)).pms
    assert (linked.system, linked.id) == ("buildium", str(task["Id"]))  # the console shows it
    assert [e.detail["work_order"] for e in await synced.events(EventKind.PMS_WRITTEN)] == ["WO-9001"]


async def test_vendor_notes_eta_go_and_a_buildium_status_comes_back(synced, stub, client):
    wo = await _work_order(synced)
    await w.queue_write_back(synced, wo)
    tick = ticker(BuildiumWorker(synced, client, ORG, poll_s=300))
    await tick()
    wo.assigned_vendor_id, wo.eta = "v_buildium_vendor-7002", "Thursday 10am"
    wo.notes.append(WorkOrderNote(text="Clara: tenant says it drips under the sink"))
    await synced.put_work_order(wo)
    await tick()
    await tick()
    [order] = stub.account.work_orders
    task_id = stub.account.tasks[0]["Id"]
    assert order["VendorId"] == 7002 and order["Task"]["Id"] == task_id
    assert stub.account.history[task_id] == ["Clara: tenant says it drips under the sink\nETA: Thursday 10am"]
    stub.account.tasks[0]["TaskStatus"] = "Completed"  # the office closes it in Buildium

    assert await apply_task_status(synced, client, task_id)
    after = await synced.get_work_order(wo.id)
    assert after.status == WorkOrderStatus.COMPLETED
    told = [m for m in await synced.outbox(limit=50) if m.recipient_person_id == DANA]
    assert told and "completed" in told[0].body
    assert not await apply_task_status(synced, client, task_id)  # the same status again changes nothing


async def test_buildium_opt_out_stops_started_texts_not_replies(synced):
    mei_phone = "+12535551003"  # SMSOptInStatus OptedOut in Buildium
    assert await synced.is_opted_out(mei_phone, Channel.SMS)
    assert not await synced.is_opted_out(mei_phone, Channel.SMS, reply=True)
    assert not await synced.is_opted_out("+12535551001", Channel.SMS)  # Dana opted in
    started = await queue_outbound(synced, OutboundRequest(key="t1", kind=NotificationKind.NOTIFY,
                                                           recipient_person_id=MEI, body="rent reminder",
                                                           channel=Channel.SMS))
    assert started.status == NotificationStatus.BLOCKED


async def test_a_work_order_opened_by_text_is_written_back(make_gateway, synced, stub, client):
    gateway, _ = await make_gateway(OfflinePool(synced), **buildium_settings(stub))
    reply = await send_sms(gateway, base_url=PUBLIC_URL, auth_token=AUTH_TOKEN, from_="+12535551001", to=ALDER,
                           body="my toilet is overflowing!", account_sid=ACCOUNT_SID)
    [wo] = await synced.work_orders_at("prop_buildium_rental-101")
    assert wo.display_id in reply.messages[0]
    await ticker(BuildiumWorker(synced, client, ORG, poll_s=300))()
    [task] = stub.account.tasks
    assert task["Title"].startswith(wo.display_id) and task["UnitAgreement"]["Id"] == 3001


async def test_the_task_link_keeps_what_a_turn_wrote_meanwhile(synced, stub, client):
    """WorkOrder.pms is set by compare-and-set: a note a turn adds between the link's read and its
    write is kept, and the link is set."""
    wo = await _work_order(synced, 9003)
    wb = await w.queue_write_back(synced, wo)

    async def turn() -> None:
        current = await synced.get_work_order(wo.id)
        await synced.note_work_order(current, DANA, "it's worse now", updated_at=None)
    racing = Spine(WriterFirst(synced.store, (keys.work_order(wo.id), keys.ITEM), turn))
    await write_one(racing, client, wb)
    after = await synced.get_work_order(wo.id)
    assert [n.text for n in after.notes] == ["it's worse now"]
    assert after.pms is not None and after.pms.id == str(stub.account.tasks[0]["Id"])
