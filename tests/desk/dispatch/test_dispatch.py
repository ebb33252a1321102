"""Vendor dispatch on the demo store: pm_assign_vendor's dispatch to the vendor's contacts, YES
(scheduled, the tenant told), NO (handed back, the managers told), a dispatch nobody accepts in
time (the managers told once), and a reassignment withdrawing the old one. Clock: Spine.clock."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from desk.dispatch.dispatch import answer_dispatch, due_dispatch_reminders, start_dispatch
from desk.outbound.queue import NotificationKind, NotificationStatus
from spine.dispatch_record import DispatchStatus
from spine.records import EventKind
from spine.work import WorkOrderStatus

NOON = datetime(2026, 12, 2, 12, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


@pytest.fixture
def clock(spine):
    now = {"t": NOON}
    spine.clock = lambda: now["t"]
    return now


async def dispatched(spine, wo_id="wo_42", vendor="v_carlos"):
    wo = await spine.get_work_order(wo_id)
    wo.assigned_vendor_id, wo.status = vendor, WorkOrderStatus.DISPATCHED
    await spine.put_work_order(wo)
    return await start_dispatch(spine, wo, vendor, by_person_id="p_priya")


async def test_the_dispatch_text_names_the_job_and_how_to_answer(spine, clock):
    [sent] = await dispatched(spine)
    assert (sent.kind, sent.recipient_person_id, sent.channel, sent.status) == (
        NotificationKind.DISPATCH, "p_carlos", "sms", NotificationStatus.QUEUED)
    row = await spine.get_outbox(sent.outbox_id)
    assert row.to_address == "+13035552020" and row.from_address == "+12065550100"
    for part in ("JP Yale Station", "1200 Yale Ave N, Seattle, WA", "unit 312", "WO-42", "leak under kitchen sink",
                 "Priority: normal", "Reply YES to accept or NO to pass"):
        assert part in row.body
    assert len(await spine.events(EventKind.DISPATCH_SENT)) == 1


async def test_yes_schedules_the_work_order_and_tells_the_tenant(spine, clock):
    await dispatched(spine, "wo_7", "v_inhouse")
    answer = await answer_dispatch(spine, "p_mike", accept=True, work_order=None)
    assert answer.outcome == "accepted" and "WO-7 is yours" in answer.reply
    assert "The tenant has been notified." in answer.reply
    wo = await spine.get_work_order("wo_7")
    assert wo.status == WorkOrderStatus.SCHEDULED and wo.notes[-1].text == "Dispatch accepted by Mike Torres"
    [told] = answer.notifications
    assert (told.kind, told.recipient_person_id, told.status) == ("notify", "p_marcus", "queued")
    assert len(await spine.events(EventKind.DISPATCH_ACCEPTED)) == 1
    again = await answer_dispatch(spine, "p_mike", accept=True, work_order=None)
    assert again is None  # nothing open: a second YES is an ordinary message


async def test_no_hands_it_back_and_tells_the_managers(spine, clock):
    await dispatched(spine)
    answer = await answer_dispatch(spine, "p_carlos", accept=False, work_order="wo-42")
    assert answer.outcome == "declined" and "The office has been told." in answer.reply
    wo = await spine.get_work_order("wo_42")
    assert (wo.status, wo.assigned_vendor_id) == (WorkOrderStatus.OPEN, None)
    assert "Dispatch declined by Carlos Reyes (Carlos Plumbing)" in wo.notes[-1].text
    assert {(n.kind, n.recipient_person_id) for n in answer.notifications} == {("staff", "p_priya")}
    row = await spine.get_outbox(answer.notifications[0].outbox_id)
    assert "Carlos Plumbing (Carlos Reyes) passed on WO-42" in row.body
    assert len(await spine.events(EventKind.DISPATCH_DECLINED)) == 1


async def test_several_waiting_asks_which_and_a_named_one_is_taken(spine, clock):
    await dispatched(spine, "wo_42")
    await dispatched(spine, "wo_51")
    ambiguous = await answer_dispatch(spine, "p_carlos", accept=True, work_order=None)
    assert ambiguous.outcome == "ambiguous" and "YES WO-42" in ambiguous.reply
    taken = await answer_dispatch(spine, "p_carlos", accept=True, work_order="WO-51")
    assert taken.outcome == "accepted" and (await spine.get_work_order("wo_51")).status == WorkOrderStatus.SCHEDULED
    assert await answer_dispatch(spine, "p_mike", accept=True, work_order="WO-42") is None  # not Mike's vendor


async def test_not_accepted_in_time_the_managers_are_told_once(spine, clock):
    await dispatched(spine)
    assert await due_dispatch_reminders(spine, accept_within_s=3600) == []
    clock["t"] = NOON + timedelta(seconds=3601)
    [told] = await due_dispatch_reminders(spine, accept_within_s=3600)
    assert (told.kind, told.recipient_person_id) == ("staff", "p_priya")
    assert "nobody at Carlos Plumbing has accepted WO-42" in (await spine.get_outbox(told.outbox_id)).body
    assert await due_dispatch_reminders(spine, accept_within_s=3600) == []  # once
    assert (await answer_dispatch(spine, "p_carlos", accept=True, work_order=None)).outcome == "accepted"


async def test_a_reassignment_withdraws_the_open_dispatch(spine, clock):
    await dispatched(spine, "wo_42", "v_carlos")
    await dispatched(spine, "wo_42", "v_inhouse")
    assert [d.vendor_id for d in await spine.dispatches(DispatchStatus.PENDING)] == ["v_inhouse"]
    assert [d.vendor_id for d in await spine.dispatches(DispatchStatus.WITHDRAWN)] == ["v_carlos"]
    assert await answer_dispatch(spine, "p_carlos", accept=True, work_order=None) is None



async def test_a_vendor_ended_meanwhile_cannot_take_the_dispatch_by_yes(spine, clock):
    # Issue 40 item 8: the page path checks vendor.active; the YES path must too.
    await dispatched(spine, "wo_7", "v_inhouse")
    vendor = await spine.get_vendor("v_inhouse")
    await spine.put_vendor(vendor.model_copy(update={"active": False}))
    assert await answer_dispatch(spine, "p_mike", accept=True, work_order=None) is None
    wo = await spine.get_work_order("wo_7")
    assert wo.status == WorkOrderStatus.DISPATCHED and not await spine.events(EventKind.DISPATCH_ACCEPTED)
