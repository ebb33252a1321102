"""What a transfer asks of the store: before the Calls update leaves for Twilio (issue 38: the
redirect's own cost, beside a plain server tool's), every round trip logged with how many updates
the Twilio stand-in had received by then; and what Twilio hears when the store is down. In-process
through the real routes."""
from __future__ import annotations

import httpx
import pytest

import spine.keys as keys
from actors.dispatcher.dispatcher import Dispatcher
from actors.model.offline import OfflineModel
from gateway.voice.services import VoiceServices
from spine.repo import Spine
from tests.support.store_log_helpers import StoreLog
from tests.support.transfer_helpers import SATURDAY_NOON_SEATTLE, TwilioCall
from tests.support.voice_helpers import ACCOUNT, PUBLIC_URL, client_for, twilio_sid, voice_app, voice_settings


@pytest.fixture
async def logged(spine, twilio):
    """(the store's log, a Twilio call on the line) with the voice routes over the logged store."""
    log = StoreLog(spine.store, mark=lambda: len(twilio.call_updates.items))
    watched = Spine(log, clock=lambda: SATURDAY_NOON_SEATTLE)  # out of hours: the on-call people are rung
    settings = voice_settings(twilio_account_sid=ACCOUNT, twilio_api_base=twilio.url)
    async with httpx.AsyncClient(timeout=5.0) as http:
        services = VoiceServices.build(settings, watched, Dispatcher(watched), OfflineModel(), http=http)
        async with client_for(voice_app(services)) as client:
            call = TwilioCall(client, twilio, twilio_sid("CA", "cost"))
            await call.personalize()
            await services.calls.drain()  # the call's opening written: only the tool's work is logged
            log.ops.clear()
            yield log, call
        await services.calls.drain()


def _touching(ops, *prefixes: str):
    return [op for op in ops if any(k.startswith(prefixes) for k in op.keys)]


async def test_the_update_leaves_before_anything_that_can_wait(logged, twilio):
    log, call = logged
    answer = await call.transfer("wants a person now")
    assert answer["out"]["status"] == "connecting"
    before = [op for op in log.ops if op.mark == 0]
    after = [op for op in log.ops if op.mark == 1]
    transfer_key = keys.transfer(answer["out"]["transfer_id"])
    # the transfer is written before Twilio is asked (its TwiML route reads it), never read back
    assert [op.name for op in _touching(before, transfer_key)] == ["put_many"]
    # whom to ring: the office with the plan in one read, then everyone on the plan in one read
    # and their roles (the on-call rule a page follows, desk/oncall/people.py) at the same time
    assert [op.keys for op in _touching(before, "OFFICE#", "ONCALL#")] == [
        (keys.office("pf_yale"), keys.oncall_plan("pf_yale"))]
    mike, priya = keys.person("p_mike"), keys.person("p_priya")
    assert sorted((op.name, op.keys) for op in before if op.keys and all(k.startswith("PERSON#") for k in op.keys)) \
        == [("get_many", (mike, priya)), ("query", (mike,)), ("query", (priya,))]
    # the trace waits: after the update, one write for the tool call and transfer/started together
    trace_key = keys.trace(f"voice-{call.call_sid}")
    assert [op.name for op in _touching(before, trace_key) if op.name.startswith("put")] == []
    assert [op.name for op in _touching(after, trace_key) if op.name.startswith("put")] == ["put"]
    trace = await Spine(log.inner).get_trace(f"voice-{call.call_sid}")
    assert [c.name for c in trace.tool_calls] == ["transfer_to_staff"]
    assert [e.kind for e in trace.events if e.kind.startswith("transfer/")] == ["transfer/started"]


async def test_the_same_tool_call_again_moves_the_call_once_and_says_so_again(logged, twilio):
    _, call = logged
    first = await call.transfer("wants a person now")
    again = await call.transfer("wants a person now")  # the webhook retried: the run is replayed
    assert first["out"]["status"] == again["out"]["status"] == "connecting"
    assert again["out"]["transfer_id"] == first["out"]["transfer_id"] and len(twilio.call_updates.items) == 1
    log, _ = logged
    trace = await Spine(log.inner).get_trace(f"voice-{call.call_sid}")
    assert [c.name for c in trace.tool_calls] == ["transfer_to_staff"]
    assert [e.kind for e in trace.events if e.kind.startswith("transfer/")] == ["transfer/started"]


@pytest.mark.parametrize("leg", ["", "/whisper?index=0", "/whisper/gather?index=0", "/result?index=0"])
async def test_with_the_store_down_twilio_hears_an_apology_and_forgeries_are_still_refused(logged, twilio, leg):
    log, call = logged
    answer = await call.transfer("wants a person now")
    url = f"{PUBLIC_URL}/voice/transfer/{answer['out']['transfer_id']}{leg}"
    log.down = True
    said = await call.fetch(url, Digits="1", DialCallStatus="no-answer")  # signed, as Twilio sends it
    assert "<Say" in said and "<Hangup" in said
    forged = await call.client.post(url, data=call.form(Digits="1"), headers={"X-Twilio-Signature": "bm90IGl0"})
    assert forged.status_code == 403
