"""A caller reaches a person (issue 38): transfer_to_staff redirects the live call through the
Twilio stand-in's Calls API, then Twilio's signed requests ring the office or the on-call people,
each whispered to first; 1 connects, anything else moves on, nobody leaves an escalation and the
caller back with Clara. In-process through the real routes; the clock set on the store."""
from __future__ import annotations

import pytest

from desk.oncall.paging import PageRequest, start_page
from spine.transfer import TransferOutcome
from tests.support.transfer_helpers import (
    MIKE,
    MONDAY_10AM_SEATTLE,
    OFFICE,
    PRIYA,
    SATURDAY_NOON_SEATTLE,
    TwilioCall,
    number,
)
from tests.support.voice_helpers import PUBLIC_URL, twilio_sid


@pytest.fixture
def services(twilio_services):
    return twilio_services  # this module's calls reach the Twilio stand-in


async def _call(client, twilio, tag: str, **kw) -> TwilioCall:
    call = TwilioCall(client, twilio, twilio_sid("CA", tag), **kw)
    await call.personalize()
    return call


KINDS = ("transfer/started", "transfer/ringing", "transfer/connected", "transfer/failed")


async def _kinds(spine) -> list[str]:
    """The transfer events, in the order they happened."""
    events = [e for kind in KINDS for e in await spine.events(kind)]
    return [e.kind for e in sorted(events, key=lambda e: e.at)]


async def test_in_office_hours_the_office_is_rung_and_a_1_connects(client, twilio, spine):
    spine.clock = lambda: MONDAY_10AM_SEATTLE
    call = await _call(client, twilio, "office")
    answer = await call.transfer("wants the leasing office about a package")
    assert answer["out"]["status"] == "connecting" and answer["out"]["targets"] == ["the office"]
    [update] = twilio.call_updates.items
    transfer_id = answer["out"]["transfer_id"]
    assert update.sid == call.call_sid and update.form["Url"] == f"{PUBLIC_URL}/voice/transfer/{transfer_id}"
    dial = await call.fetch(update.form["Url"])
    assert 'timeout="15"' in dial and number(dial) == OFFICE and "/result?index=0" in dial
    whisper, after = await call.whisper(dial, "1")
    assert 'numDigits="1"' in whisper and "Marcus Johnson, tenant of unit 204" in whisper and "package" in whisper
    assert after.strip().endswith("<Response />")  # empty: Twilio bridges the legs
    assert (await spine.get_transfer(transfer_id)).outcome == TransferOutcome.CONNECTED
    assert "<Hangup" in await call.dial_result(dial, "completed")  # their conversation is over
    assert await _kinds(spine) == ["transfer/started", "transfer/ringing", "transfer/connected"]
    trace = await spine.get_trace(f"voice-{call.call_sid}")
    assert [e.kind for e in trace.events if e.kind.startswith("transfer/")] == await _kinds(spine)


async def test_out_of_hours_declined_then_no_answer_files_an_escalation_and_clara_takes_the_caller_back(
        client, twilio, spine):
    spine.clock = lambda: SATURDAY_NOON_SEATTLE
    call = await _call(client, twilio, "nobody")
    answer = await call.transfer("my rent question can't wait")
    assert answer["out"]["targets"] == ["Mike Torres (on-call level 1)", "Priya Shah (on-call level 2)"]
    first = await call.fetch(twilio.call_updates.items[0].form["Url"])
    assert number(first) == MIKE
    _, passed = await call.whisper(first, "2")
    assert "<Hangup" in passed
    second = await call.dial_result(first, "completed")  # Mike's leg hung up by his 2: the next level
    assert number(second) == PRIYA and "index=1" in second
    back = await call.dial_result(second, "no-answer")
    assert "<Connect" in back and "<Stream" in back and 'name="transfer_id"' in back
    transfer = await spine.get_transfer(answer["out"]["transfer_id"])
    assert transfer.outcome == TransferOutcome.FAILED and [a.status for a in transfer.attempts] == [
        "declined", "no-answer"]
    escalation = await spine.get_escalation(transfer.escalation_id)
    assert escalation.interaction_id == f"voice-{call.call_sid}" and escalation.person_id == "p_marcus"
    assert "rent question" in escalation.reason
    assert "Mike Torres" in escalation.summary and "Priya Shah" in escalation.summary and "declined" in escalation.summary
    assert (await _kinds(spine))[-1] == "transfer/failed"
    again = await call.dial_result(second, "no-answer")  # Twilio retrying: nothing moves twice
    assert "<Stream" in again and (await spine.get_transfer(transfer.id)).escalation_id == escalation.id


async def test_an_emergency_in_hours_goes_on_call_and_never_rings_someone_the_page_is_ringing(client, twilio, spine):
    spine.clock = lambda: MONDAY_10AM_SEATTLE
    call = await _call(client, twilio, "emergency")
    await start_page(spine, PageRequest(page_id="pg_test", property_id="pf_yale", reason="water through the ceiling",
                                        reporter_person_id="p_marcus"))  # rings Mike (level 1) now
    answer = await call.transfer("water pouring through the ceiling", urgency="emergency")
    assert answer["out"]["targets"][0] == "Mike Torres (on-call level 1)"
    dial = await call.fetch(twilio.call_updates.items[0].form["Url"])
    assert number(dial) == PRIYA  # Mike's phone is already ringing with the page
    transfer = await spine.get_transfer(answer["out"]["transfer_id"])
    assert [a.status for a in transfer.attempts] == ["skipped: rung by the page", "ringing"]
    whisper, _ = await call.whisper(dial, "1")
    assert whisper.count("Emergency") == 1 and "water" in whisper


async def test_a_redirect_twilio_refuses_is_said_honestly(client, twilio, spine):
    spine.clock = lambda: MONDAY_10AM_SEATTLE
    twilio.fail_next_update(404, 20404, "The requested resource was not found")
    call = await _call(client, twilio, "refused")
    answer = await call.transfer()
    assert answer["out"]["status"] == "not_connected" and "could not connect" in answer["out"]["message"]
    transfer = await spine.get_transfer(answer["out"]["transfer_id"])
    assert transfer.outcome == TransferOutcome.FAILED and transfer.redirect_status == 404
    assert await _kinds(spine) == ["transfer/started", "transfer/failed"]


async def test_the_other_lane_gets_no_transfer(client, twilio, spine):
    call = await _call(client, twilio, "other", caller="+13105557777")
    answer = await call.transfer()
    assert answer["is_error"] and twilio.call_updates.items == []


@pytest.mark.parametrize("leg", ["", "/whisper?index=0", "/whisper/gather?index=0", "/result?index=0"])
async def test_unsigned_or_forged_requests_are_refused(client, twilio, spine, leg):
    spine.clock = lambda: MONDAY_10AM_SEATTLE
    call = await _call(client, twilio, f"forged{leg}")
    transfer_id = (await call.transfer())["out"]["transfer_id"]
    url = f"{PUBLIC_URL}/voice/transfer/{transfer_id}{leg}"
    unsigned = await client.post(url, data=call.form(Digits="1", DialCallStatus="completed"))
    forged = await client.post(url, data=call.form(Digits="1"), headers={"X-Twilio-Signature": "bm90IGl0"})
    assert unsigned.status_code == forged.status_code == 403
    assert (await spine.get_transfer(transfer_id)).outcome == TransferOutcome.PENDING
