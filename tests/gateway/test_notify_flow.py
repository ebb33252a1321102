"""People told, end to end without Ray: a vendor's text through the SMS webhook, the real turn
(offline model, tools), the outbox sender on the Twilio stand-in, the tenant's text. The clock of
the contact window is the spine's (injected); the sender is handed the same moments."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from gateway.outbox_sender import OutboxSender
from spine.records import OutboxStatus
from spine.work import WorkOrderStatus
from tests.support.gateway_helpers import MARCUS, OfflinePool, text
from tests.support.introduction_helpers import YALE_EN

MIKE, CARLOS, PRIYA = "+13035551500", "+13035552020", "+12065550150"


# The spine's clock is the test's, but the gateway's own send-at-once after a turn
# (gateway.send_soon) judges "due" by the wall clock: a moment in the future keeps it from
# claiming rows the test means to send itself (a date in the past let it race the test).
YEAR = 2037  # 2 December is a Wednesday, as in 2026


def seattle(hour: int, minute: int = 0, day: int = 2) -> datetime:
    return datetime(YEAR, 12, day, hour, minute, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


@pytest.fixture
def clock(spine):
    now = {"t": seattle(15)}
    spine.clock = lambda: now["t"]
    return now


async def test_k2_mikes_eta_reaches_marcus_within_the_minute(make_gateway, spine, twilio, clock):
    client, context = await make_gateway(OfflinePool(spine))
    reply = await text(client, "I'm 10 min out from WO-7", from_=MIKE)
    assert reply.messages == ["Got it Mike, see you in about 10 minutes. Tenant has been notified." + YALE_EN]
    trace = await spine.get_trace(reply.interaction_id)
    assert [(n.kind, n.recipient_person_id, n.status) for n in trace.notifications] == [("notify", "p_marcus", "queued")]
    sender = OutboxSender(spine, context.settings, context.http)
    await sender.send_due(now=clock["t"])  # held to the end of its minute: changes coalesce
    assert [s for s in twilio.accepted() if s.to == MARCUS] == []
    await sender.send_due(now=clock["t"] + timedelta(seconds=61))
    [told] = [s for s in twilio.accepted() if s.to == MARCUS]
    assert "WO-7" in told.body and "Mike from JP Yale in-house maintenance expects to be there: 10 minutes" in told.body


async def test_a_stop_after_a_deferred_notice_keeps_it_from_leaving_at_nine(make_gateway, spine, twilio, clock):
    clock["t"] = seattle(22)
    client, context = await make_gateway(OfflinePool(spine))
    reply = await text(client, "I'm 10 min out from WO-7", from_=MIKE)
    assert "The tenant will be told at 9:00 am" in reply.messages[0]
    sender = OutboxSender(spine, context.settings, context.http)
    await sender.send_due(now=seattle(23))
    assert [s for s in twilio.accepted() if s.to == MARCUS] == []  # waits for the window
    await text(client, "STOP")  # Marcus, before the morning
    await sender.send_due(now=seattle(9, 1, day=3))
    assert [s for s in twilio.accepted() if s.to == MARCUS] == []
    [row] = [r for r in await spine.outbox(OutboxStatus.BLOCKED) if r.recipient_person_id == "p_marcus"]
    assert row.error == "opted out of sms"


async def test_a_dispatch_texted_to_carlos_accepted_by_yes_tells_marcus(make_gateway, spine, twilio, clock):
    client, context = await make_gateway(OfflinePool(spine))
    assigned = await text(client, "assign WO-7 to v_carlos", from_=PRIYA)
    assert "I've texted them the dispatch" in assigned.messages[0]
    sender = OutboxSender(spine, context.settings, context.http)
    await sender.send_due(now=clock["t"])
    [dispatch] = [s for s in twilio.accepted() if s.to == CARLOS]
    assert "WO-7" in dispatch.body and "unit 204" in dispatch.body and "Reply YES to accept or NO to pass" in dispatch.body
    turns = len(context.pool.submitted)
    accepted = await text(client, "YES", from_=CARLOS)
    assert len(context.pool.submitted) == turns  # answered before any agent turn
    assert accepted.messages[0].startswith("Thanks Carlos, WO-7 is yours")
    assert (await spine.get_work_order("wo_7")).status == WorkOrderStatus.SCHEDULED
    await sender.send_due(now=clock["t"] + timedelta(seconds=61))
    [told] = [s for s in twilio.accepted() if s.to == MARCUS]
    assert "It is scheduled." in told.body
