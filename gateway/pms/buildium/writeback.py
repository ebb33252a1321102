"""Write-back to Buildium (desk.pms.writeback keeps the records): a work order opened at a
Buildium unit becomes a resident request task (`POST /v1/tasks/residentrequests`, requested by
the tenant, on their lease, its priority mapped), a vendor assignment the task's work order
(`POST /v1/workorders`), and Clara's notes and a vendor's ETA a Message on the task (`PUT`).

Exactly once: a create is marked in doubt before it is sent; a create in doubt is first looked up
(the lease's tasks by title, the task's work orders by vendor) and only created when not found.
A status change made in Buildium comes back the other way (`apply_task_status`): it changes the
gateway's work order and sends the tenant's notice through desk.dispatch.notices."""
from __future__ import annotations

import re

from desk.dispatch.notices import notify_work_order_change, worth_a_notice
from desk.pms import writeback as w
from desk.pms.buildium.records import (
    BuildiumWorkOrder,
    ResidentRequest,
    ResidentRequestPost,
    ResidentRequestPut,
    TaskPriorityName,
    TaskStatusName,
    WorkOrderPost,
)
from gateway.pms.buildium.client import BuildiumClient, BuildiumError, BuildiumTimeout
from spine.events import emit_event
from spine.identity import utcnow
from spine.records import EventKind
from spine.repo import Spine
from spine.work import WorkOrder, WorkOrderPmsLink, WorkOrderStatus

PRIORITY: dict[str, TaskPriorityName] = {"emergency": "High", "urgent": "High", "high": "High", "low": "Low"}
TO_TASK: dict[WorkOrderStatus, TaskStatusName] = {
    WorkOrderStatus.IN_PROGRESS: "InProgress", WorkOrderStatus.COMPLETED: "Completed", WorkOrderStatus.CLOSED: "Closed",
    WorkOrderStatus.CANCELLED: "Closed"}
FROM_TASK: dict[str, WorkOrderStatus] = {"New": WorkOrderStatus.OPEN, "InProgress": WorkOrderStatus.IN_PROGRESS,
                                         "Completed": WorkOrderStatus.COMPLETED, "Closed": WorkOrderStatus.CLOSED}
_VENDOR = re.compile(r"^v_buildium_vendor-(\d+)$")  # a vendor the Buildium sync made


def title(wo: WorkOrder) -> str:
    """The task's title; it starts with the work order's number, which is how a lookup finds it."""
    return f"{wo.display_id}: {wo.brief}"[:127]


def task_status(wo: WorkOrder) -> TaskStatusName:
    return TO_TASK.get(WorkOrderStatus(wo.status), "New")


async def _event(spine: Spine, kind: EventKind, reason: str, wo: WorkOrder, **detail: object) -> None:
    await emit_event(spine, kind, reason, channel=None, address=None, property_id=wo.property_id,
                     interaction_id=None, detail={"work_order": wo.display_id, **detail})


async def _link(spine: Spine, wo: WorkOrder, task_id: int) -> None:
    """The work order shows its Buildium task (the console's board reads WorkOrder.pms), set by
    compare-and-set: a turn may be writing the work order at the same time."""
    await spine.link_work_order(wo.id, WorkOrderPmsLink(system="buildium", id=str(task_id), synced_at=utcnow()))


async def _find_task(client: BuildiumClient, wb: w.WriteBack, wo: WorkOrder) -> int | None:
    async for page, _ in client.pages("/v1/tasks/residentrequests", ResidentRequest, {"unitagreementid": wb.lease_id}):
        for task in page:
            if task.Title == title(wo):
                return task.Id
    return None


async def _create_task(spine: Spine, client: BuildiumClient, wb: w.WriteBack, wo: WorkOrder) -> None:
    if wb.in_doubt and (found := await _find_task(client, wb, wo)) is not None:
        wb.task_id, wb.in_doubt, wb.state = found, False, "written"
        await w.save(spine, wb)
        await w.link_task(spine, wb)
        await _link(spine, wo, found)
        await _event(spine, EventKind.PMS_WRITTEN, "task_found", wo, task_id=found)
        return
    wb.in_doubt, wb.attempts = True, wb.attempts + 1
    if not await w.save(spine, wb):
        return  # another worker has it
    body = ResidentRequestPost(Title=title(wo), Description=wo.description or wo.brief, UnitAgreementId=wb.lease_id,
                               RequestedByEntityId=wb.tenant_id, Priority=PRIORITY.get(wo.priority, "Normal"))
    try:
        task = ResidentRequest.model_validate(await client.post("/v1/tasks/residentrequests", body))
    except BuildiumTimeout as exc:
        wb.error = str(exc)  # still in doubt: the next attempt looks it up first
        await w.save(spine, wb)
        return
    except BuildiumError as exc:
        refused = exc.status is not None and 400 <= exc.status < 500 and exc.status != 429
        wb.error, wb.in_doubt = str(exc), not refused  # a 4xx created nothing; a 5xx may have
        wb.state = "failed" if refused else "pending"
        await w.save(spine, wb)
        await _event(spine, EventKind.PMS_FAILED, "task_refused" if refused else "task_failed", wo, error=str(exc))
        return
    wb.task_id, wb.in_doubt, wb.state, wb.error = task.Id, False, "written", None
    await w.save(spine, wb)
    await w.link_task(spine, wb)
    await _link(spine, wo, task.Id)
    await _event(spine, EventKind.PMS_WRITTEN, "task_created", wo, task_id=task.Id)


async def _vendor(spine: Spine, client: BuildiumClient, wb: w.WriteBack, wo: WorkOrder) -> None:
    """The assigned vendor's work order on the task, once per vendor assigned."""
    assert wb.task_id is not None
    found = _VENDOR.match(wo.assigned_vendor_id or "")
    if not found or wo.assigned_vendor_id == wb.vendor_id:
        return  # none, not one of Buildium's vendors, or written
    vendor = int(found[1])
    if wb.vendor_in_doubt:
        async for page, _ in client.pages("/v1/workorders", BuildiumWorkOrder, {"taskids": [str(wb.task_id)]}):
            if existing := next((o for o in page if o.VendorId == vendor), None):
                wb.vendor_id, wb.pms_work_order_id, wb.vendor_in_doubt = wo.assigned_vendor_id, existing.Id, False
                await w.save(spine, wb)
                return
    wb.vendor_in_doubt = True
    if not await w.save(spine, wb):
        return
    body = WorkOrderPost(TaskId=wb.task_id, VendorId=vendor, Title=title(wo), WorkDetails=wo.description or wo.brief)
    try:
        made = BuildiumWorkOrder.model_validate(await client.post("/v1/workorders", body))
    except BuildiumError as exc:  # a timeout stays in doubt and is looked up next time
        wb.error = str(exc)
        await w.save(spine, wb)
        return
    wb.vendor_id, wb.pms_work_order_id, wb.vendor_in_doubt, wb.error = wo.assigned_vendor_id, made.Id, False, None
    await w.save(spine, wb)
    await _event(spine, EventKind.PMS_WRITTEN, "work_order_created", wo, pms_work_order_id=made.Id)


async def _notes(spine: Spine, client: BuildiumClient, wb: w.WriteBack, wo: WorkOrder) -> None:
    """New notes and a new ETA as one Message on the task, with the task's status kept in step."""
    lines = [n.text for n in wo.notes[wb.notes_written:]]
    if wo.eta and wo.eta != wb.eta_written:
        lines.append(f"ETA: {wo.eta}")
    if not lines:
        return
    body = ResidentRequestPut(Title=title(wo), TaskStatus=task_status(wo), Priority=PRIORITY.get(wo.priority, "Normal"),
                              Message="\n".join(lines)[:2000])
    try:
        await client.put(f"/v1/tasks/residentrequests/{wb.task_id}", body)
    except BuildiumError as exc:
        wb.error = str(exc)
        await w.save(spine, wb)
        return
    wb.notes_written, wb.eta_written, wb.status_from_pms = len(wo.notes), wo.eta, body.TaskStatus
    await w.save(spine, wb)


async def write_one(spine: Spine, client: BuildiumClient, wb: w.WriteBack) -> None:
    wo = await spine.get_work_order(wb.work_order_id)
    if wo is None or wb.state == "failed":
        return
    if wb.task_id is None:
        await _create_task(spine, client, wb, wo)
    if wb.task_id is not None:
        await _vendor(spine, client, wb, wo)
        await _notes(spine, client, wb, wo)


async def apply_task_status(spine: Spine, client: BuildiumClient, task_id: int) -> bool:
    """A task changed in Buildium: its status onto the gateway's work order, the tenant told as
    for any change (desk.dispatch.notices). True when the work order changed."""
    wb = await w.of_task(spine, "buildium", task_id)
    if wb is None:
        return False  # a task the gateway did not write
    task = await client.get(f"/v1/tasks/residentrequests/{task_id}", ResidentRequest)
    wo = await spine.get_work_order(wb.work_order_id)
    status = FROM_TASK.get(task.TaskStatus)
    if wo is None or status is None or task.TaskStatus == wb.status_from_pms or wo.status == status:
        return False  # unknown, Deferred, or the echo of what the gateway wrote
    before_status, before_eta = wo.status, wo.eta
    wo.status, now = status, spine.clock()
    wo.pms = WorkOrderPmsLink(system="buildium", id=str(task_id), synced_at=now)
    await spine.note_work_order(wo, None, f"Buildium: task {task.TaskStatus}", updated_at=now)
    wb.status_from_pms, wb.notes_written = task.TaskStatus, len(wo.notes)  # its own note needs no write-back
    await w.save(spine, wb)
    if worth_a_notice(before_status, before_eta, wo):
        await notify_work_order_change(spine, wo, changed_by=None)
    await _event(spine, EventKind.PMS_SYNCED, "task_status", wo, status=task.TaskStatus)
    return True
