"""A tenant is told when a vendor moves their work order, one test per contact window: inside
(queued, held to the end of its minute so changes coalesce), outside (deferred to 09:00 in the
property's zone), an emergency (at once), opted out (blocked). The clock is the spine's (injected)."""
from __future__ import annotations

import itertools
import json
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from desk.dispatch.dispatch import start_dispatch
from spine.context import Channel
from spine.dispatch_record import DispatchStatus
from spine.records import EventKind, OptOut, OutboxStatus
from spine.toolspec import ToolInvocation
from tools.dispatch import dispatch

_ids = itertools.count()
SEATTLE = ZoneInfo("America/Los_Angeles")
MARCUS = "+12065551001"


def local(zone: ZoneInfo, hour: int, minute: int = 0, second: int = 0, day: int = 2) -> datetime:
    return datetime(2026, 12, day, hour, minute, second, tzinfo=zone).astimezone(UTC)


@pytest.fixture
def clock(spine):
    now = {"t": local(SEATTLE, 10)}
    spine.clock = lambda: now["t"]
    return now


async def run(spine, caller, tool, /, **input):
    result = await dispatch(spine, ToolInvocation(name=tool, input=input, tool_use_id=f"tu_{next(_ids)}"), caller)
    assert not result.is_error, result.content
    return result, json.loads(result.content)


async def test_inside_the_window_marcus_is_told_and_changes_within_a_minute_are_one_message(spine, callers, clock):
    clock["t"] = local(SEATTLE, 15, 0, 10)
    result, out = await run(spine, callers["mike"], "add_eta_note", work_order_id="WO-7", eta="10 minutes")
    [told] = out["notifications"]
    assert (told["kind"], told["recipient_person_id"], told["channel"], told["status"]) == (
        "notify", "p_marcus", "sms", "queued")
    assert result.notifications[0].outbox_id == told["outbox_id"]  # the trace reads the same
    clock["t"] = local(SEATTLE, 15, 0, 40)
    await run(spine, callers["mike"], "update_work_order", work_order_id="WO-7", eta="20 minutes")
    [row] = await spine.outbox()
    assert row.to_address == MARCUS and row.not_before == local(SEATTLE, 15, 1)  # held to the minute's end
    assert "Mike from JP Yale in-house maintenance expects to be there: 20 minutes" in row.body
    assert "10 minutes" not in row.body  # the newest words, one message


async def test_outside_the_window_it_waits_for_nine_in_the_propertys_zone(spine, callers, clock):
    clock["t"] = local(SEATTLE, 22, 15)
    _, out = await run(spine, callers["mike"], "add_eta_note", work_order_id="WO-7", eta="tomorrow 8am")
    [told] = out["notifications"]
    assert told["status"] == "deferred"
    assert datetime.fromisoformat(told["not_before"]) == local(SEATTLE, 9, day=3)
    clock["t"] = local(SEATTLE, 23, 40)  # a second change that night joins the same morning message
    await run(spine, callers["mike"], "update_work_order", work_order_id="WO-7", status="scheduled")
    [row] = await spine.outbox()
    assert (row.status, row.not_before) == (OutboxStatus.PENDING, local(SEATTLE, 9, day=3))
    assert "It is scheduled." in row.body
    [deferred, *_] = await spine.events(EventKind.NOTIFY_DEFERRED)
    assert deferred.detail["recipient_person_id"] == "p_marcus" and deferred.detail["outbox_id"] == row.id


async def test_an_emergency_work_order_tells_the_tenant_at_once(spine, callers, clock):
    wo = await spine.get_work_order("wo_7")
    wo.priority = "emergency"
    await spine.put_work_order(wo)
    clock["t"] = local(SEATTLE, 2, 30)
    _, out = await run(spine, callers["mike"], "add_eta_note", work_order_id="WO-7", eta="15 minutes")
    assert out["notifications"][0]["status"] == "queued"
    [row] = await spine.outbox()
    assert row.not_before is None and row.status == OutboxStatus.PENDING


async def test_an_opted_out_tenant_gets_nothing(spine, callers, clock):
    await spine.set_opt_out(OptOut(address=MARCUS, opted_out=True, keyword="STOP", channel=Channel.SMS))
    _, out = await run(spine, callers["mike"], "add_eta_note", work_order_id="WO-7", eta="10 minutes")
    assert [(n["status"], n["reason"]) for n in out["notifications"]] == [("blocked", "opted out of sms")]
    assert await spine.outbox() == []  # nothing waits to be sent
    [row] = await spine.outbox(OutboxStatus.BLOCKED)
    assert row.to_address == MARCUS and row.error == "opted out of sms"
    assert len(await spine.events(EventKind.NOTIFY_BLOCKED)) == 1


async def test_a_note_alone_tells_nobody_and_the_reporter_is_never_told_of_their_own_change(spine, callers, clock):
    _, out = await run(spine, callers["mike"], "update_work_order", work_order_id="WO-7", note="parts ordered")
    assert out["notifications"] == [] and await spine.outbox() == []


async def test_a_vendor_handing_a_job_back_through_clara_tells_the_managers(spine, callers, clock):
    wo = await spine.get_work_order("wo_42")
    await start_dispatch(spine, wo, "v_carlos", by_person_id="p_priya")
    _, out = await run(spine, callers["carlos"], "handoff_to_other_vendor", work_order_id="WO-42",
                       reason="needs an electrician")
    assert "the managers have been told" in out["message"]
    told = {n["recipient_person_id"]: n for n in out["notifications"]}
    assert {who: (n["kind"], n["status"]) for who, n in told.items()} == {
        "p_priya": ("staff", "queued"), "p_olga": ("staff", "blocked")}  # Olga, org_admin, has no number on file
    assert "Reason: needs an electrician" in (await spine.get_outbox(told["p_priya"]["outbox_id"])).body
    assert [d.vendor_id for d in await spine.dispatches(DispatchStatus.WITHDRAWN)] == ["v_carlos"]


async def test_a_tenant_who_writes_in_spanish_is_told_in_spanish(spine, callers, clock):
    from spine.records import LastContact

    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address=MARCUS, language="es"))
    _, out = await run(spine, callers["mike"], "add_eta_note", work_order_id="WO-7", eta="10 minutes")
    row = await spine.get_outbox(out["notifications"][0]["outbox_id"])
    assert row.body.startswith("JP Yale Station: novedades de WO-7")
    assert "Mike de JP Yale in-house maintenance llegará: 10 minutes." in row.body
