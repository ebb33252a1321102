"""A page acknowledged by a vendor contact is their vendor's acceptance of the work order (by SMS
ACK or 1 on the call, both `acknowledge`): assigned, scheduled, a dispatch accepted by them,
`dispatch/accepted`, no "Reply YES" text; a staff acknowledger changes nothing about dispatch."""
from __future__ import annotations

import pytest

from desk.dispatch.dispatch import answer_dispatch, start_dispatch
from desk.oncall.ack import ack_by_text, acknowledge
from desk.oncall.paging import PageRequest, start_page
from desk.outbound.queue import NotificationKind
from spine.dispatch_record import DispatchStatus
from spine.oncall import OnCallPlan, PageVia
from spine.records import EventKind
from spine.work import WorkOrder, WorkOrderStatus
from tests.support.introduction_helpers import YALE_EN


async def _emergency(spine, *, vendor: str | None = None) -> WorkOrder:
    wo = WorkOrder(id="wo_801", display_id="WO-801", property_id="pf_yale", unit_id="u_yale_204", brief="gas smell",
                   priority="emergency", assigned_vendor_id=vendor, created_by_person_id="p_marcus")
    await spine.put_work_order(wo)
    return wo


async def _page(spine, first: str) -> str:
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[[first]], ack_timeout_s=5))
    await start_page(spine, PageRequest(page_id="pg_wo_801", property_id="pf_yale", reason="gas smell", unit="204",
                                        work_order_id="wo_801", work_order_display_id="WO-801",
                                        reporter_person_id="p_marcus", interaction_id="int_801"))
    return "pg_wo_801"


async def _ack(spine, page_id: str, person_id: str, via: PageVia):
    if via == PageVia.SMS:
        return await ack_by_text(spine, person_id, "ACK")
    return await acknowledge(spine, page_id, person_id, PageVia.CALL)  # /voice/oncall/{page_id}/gather, digit 1


async def _all_dispatches(spine):
    return [d for status in DispatchStatus for d in await spine.dispatches(status)]


@pytest.mark.parametrize("via", [PageVia.SMS, PageVia.CALL])
async def test_a_vendor_contacts_ack_accepts_the_work_order_for_their_vendor(seeded_sqlite, via):
    spine = seeded_sqlite
    await _emergency(spine)
    outcome = await _ack(spine, await _page(spine, "p_mike"), "p_mike", via)
    assert outcome is not None and outcome.acknowledged
    wo = await spine.get_work_order("wo_801")
    assert (wo.assigned_vendor_id, wo.status) == ("v_inhouse", WorkOrderStatus.SCHEDULED)
    [dispatch] = await _all_dispatches(spine)
    assert (dispatch.status, dispatch.vendor_id, dispatch.answered_by_person_id) == (
        DispatchStatus.ACCEPTED, "v_inhouse", "p_mike")
    [event] = await spine.events(EventKind.DISPATCH_ACCEPTED)
    assert event.reason == "page_acknowledged" and event.detail["person_id"] == "p_mike"
    assert "WO-801 is assigned to JP Yale in-house maintenance and scheduled" in outcome.reply
    rows = await spine.outbox(limit=500)
    assert not [r for r in rows if r.recipient_person_id == "p_mike" and "Reply YES" in r.body]
    # Marcus hears "Mike from maintenance has it" from the ACK, once: no second "It is scheduled".
    assert [r.body for r in rows if r.recipient_person_id == "p_marcus"] == [
        "Mike from maintenance has it and will be in touch." + YALE_EN]  # Clara's first message to him
    assert await answer_dispatch(spine, "p_mike", accept=False, work_order=None) is None  # nothing pending


async def test_a_vendor_contacts_ack_takes_the_work_order_from_another_vendor(seeded_sqlite):
    spine = seeded_sqlite
    wo = await _emergency(spine, vendor="v_carlos")
    await start_dispatch(spine, wo, "v_carlos", by_person_id="p_priya")
    await _ack(spine, await _page(spine, "p_mike"), "p_mike", PageVia.SMS)
    wo = await spine.get_work_order("wo_801")
    assert wo.assigned_vendor_id == "v_inhouse" and "was v_carlos" in wo.notes[-1].text
    assert {(d.vendor_id, d.status) for d in await _all_dispatches(spine)} == {
        ("v_carlos", DispatchStatus.WITHDRAWN), ("v_inhouse", DispatchStatus.ACCEPTED)}
    [event] = await spine.events(EventKind.DISPATCH_ACCEPTED)
    assert event.detail["previous_vendor_id"] == "v_carlos"
    assert await answer_dispatch(spine, "p_carlos", accept=True, work_order=None) is None


@pytest.mark.parametrize("via", [PageVia.SMS, PageVia.CALL])
async def test_a_staff_ack_changes_nothing_about_dispatch(seeded_sqlite, via):
    spine = seeded_sqlite
    await _emergency(spine)
    outcome = await _ack(spine, await _page(spine, "p_priya"), "p_priya", via)
    assert outcome is not None and outcome.acknowledged and "YES" not in outcome.reply
    wo = await spine.get_work_order("wo_801")
    assert (wo.assigned_vendor_id, wo.status) == (None, WorkOrderStatus.OPEN)
    assert await _all_dispatches(spine) == [] and await spine.events(EventKind.DISPATCH_ACCEPTED) == []
    assert not [r for r in await spine.outbox(limit=500) if r.kind == NotificationKind.DISPATCH]
