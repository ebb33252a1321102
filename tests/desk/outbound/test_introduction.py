"""A person's first message from Clara says she is an AI assistant, whatever she starts (a
dispatch, a notice, a page's text), once per person, in their language; a staff member's own
words never carry it and do not count as Clara's."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from desk.console.takeover import send_staff_message
from desk.dispatch.dispatch import start_dispatch
from desk.outbound.queue import NotificationKind, OutboundRequest, queue_outbound
from spine import keys
from spine.context import Channel
from spine.records import LastContact
from spine.repo import Spine
from spine.store.counting import ReadCount, counting
from spine.work import WorkOrderStatus
from tests.support.introduction_helpers import YALE_EN, YALE_ES

NOON = datetime(2026, 12, 2, 12, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


@pytest.fixture(autouse=True)
def clock(spine):
    spine.clock = lambda: NOON


async def _dispatch(spine, wo_id: str):
    wo = await spine.get_work_order(wo_id)
    wo.assigned_vendor_id, wo.status = "v_carlos", WorkOrderStatus.DISPATCHED
    await spine.put_work_order(wo)
    [sent] = await start_dispatch(spine, wo, "v_carlos", by_person_id="p_priya")
    return (await spine.get_outbox(sent.outbox_id)).body


async def test_a_vendors_first_dispatch_says_it_and_the_next_does_not(spine):
    first = await _dispatch(spine, "wo_42")
    assert first.endswith(YALE_EN) and first.startswith("New dispatch from JP Yale Station")  # what matters still opens it
    assert "Reply YES to accept or NO to pass" in first
    second = await _dispatch(spine, "wo_7")
    assert "WO-7" in second and "AI assistant" not in second


def _notice(key: str, person: str = "p_marcus", **extra) -> OutboundRequest:
    return OutboundRequest(key=key, kind=NotificationKind.NOTIFY, recipient_person_id=person, property_id="pf_yale",
                           body="Update on WO-7: Mike is on his way.", **extra)


async def test_a_staff_message_never_carries_it_and_clara_still_introduces_herself_after(spine):
    sent = await send_staff_message(spine, "p_marcus", "pf_yale", "p_priya", "Hi Marcus, Priya here.",
                                    release_after_s=3600)
    assert sent is not None
    [row] = [r for r in await spine.outbox(limit=50) if r.kind == NotificationKind.STAFF]
    assert row.body == "Hi Marcus, Priya here."  # the staff's own words, untouched
    assert not await spine.is_marked(keys.introduced_marker("p_marcus"))
    clara = await queue_outbound(spine, _notice("notify:after-staff"))
    assert (await spine.get_outbox(clara.outbox_id)).body.endswith(YALE_EN)


async def test_in_the_language_they_last_wrote_in(spine):
    await spine.note_last_contact(LastContact(person_id="p_jordan", channel=Channel.SMS, address="+12065551002",
                                              language="es"))
    sent = await queue_outbound(spine, _notice("notify:es", person="p_jordan"))
    assert (await spine.get_outbox(sent.outbox_id)).body.endswith(YALE_ES)


async def test_a_call_says_nothing_of_it_and_the_text_beside_it_does(spine):
    call = await queue_outbound(spine, _notice("page:call", channel=Channel.VOICE, urgent=True))
    assert "AI" not in (await spine.get_outbox(call.outbox_id)).body  # a call's words are its route's
    text = await queue_outbound(spine, _notice("page:text", channel=Channel.SMS, urgent=True))
    assert (await spine.get_outbox(text.outbox_id)).body.endswith(YALE_EN)


async def test_once_known_a_started_message_reads_no_marker(spine):
    counted = Spine(counting(spine.store))
    counted.clock = spine.clock
    await queue_outbound(counted, _notice("notify:one"))  # introduced here
    with ReadCount() as reads:
        again = await queue_outbound(counted, _notice("notify:two"))
    assert "AI assistant" not in (await spine.get_outbox(again.outbox_id)).body
    assert reads.as_dict().get("once", 0) == 0  # this process saw the marker made: asking again reads nothing
