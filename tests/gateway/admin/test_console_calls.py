"""A call on the console's conversation page (issue 38): its turns (the post-call transcript), its
summary (the post-call analysis), its transfers and how they ended; the escalation a failed
transfer filed links to the call. Through the real routes: personalization, the transfer tool, the
Twilio stand-in's signed requests, the signed post-call webhook, the console API and page."""
from __future__ import annotations

import json
import time

import pytest

from gateway.voice.signature import sign
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app
from tests.support.transfer_helpers import SATURDAY_NOON_SEATTLE, TwilioCall
from tests.support.twilio_server import TwilioStandIn
from tests.support.voice_helpers import ACCOUNT, MARCUS, SECRET, VOICE_TOKEN, WEBHOOK_SECRET, twilio_sid

SUMMARY = "Marcus asked for a person about his heater; nobody could take the call, a message was left."


@pytest.fixture
def twilio():
    with TwilioStandIn(account_sid=ACCOUNT, auth_token=SECRET) as server:
        yield server


@pytest.fixture
async def app(spine, twilio):
    client, context = console_app(spine, twilio=twilio, twilio_account_sid=ACCOUNT, twilio_auth_token=SECRET,
                                  voice_token=VOICE_TOKEN, elevenlabs_webhook_secret=WEBHOOK_SECRET)
    yield client, context
    await client.aclose()
    await context.http.aclose()


async def _post_call(client, sid: str) -> None:
    body = json.dumps({"type": "post_call_transcription", "event_timestamp": int(time.time()), "data": {
        "agent_id": "agent_clara", "conversation_id": "conv_t", "status": "done",
        "transcript": [{"role": "user", "message": "let me talk to someone about my heater", "time_in_call_secs": 1},
                       {"role": "agent", "message": "Connecting you now.", "time_in_call_secs": 2}],
        "analysis": {"transcript_summary": SUMMARY, "call_successful": "success"},
        "metadata": {"phone_call": {"call_sid": sid, "external_number": MARCUS}},
        "conversation_initiation_client_data": {"dynamic_variables": {"interaction_id": f"voice-{sid}"}}}}).encode()
    r = await client.post("/voice/post-call", content=body, headers={
        "ElevenLabs-Signature": sign(WEBHOOK_SECRET, body, int(time.time())), "Content-Type": "application/json"})
    assert r.status_code == 200, r.text


async def test_the_call_its_summary_and_its_failed_transfer_are_on_the_conversation(app, spine, twilio):
    client, _ = app
    spine.clock = lambda: SATURDAY_NOON_SEATTLE
    call = TwilioCall(client, twilio, twilio_sid("CA", "console"))
    await call.personalize()
    transfer_id = (await call.transfer("the heater is broken"))["out"]["transfer_id"]
    dial = await call.fetch(twilio.call_updates.items[0].form["Url"])
    back = await call.dial_result(await call.dial_result(dial, "no-answer"), "busy")
    assert "<Stream" in back
    await _post_call(client, call.call_sid)
    convo = (await client.get("/admin/api/conversations/p_marcus", headers=AUTH)).json()
    assert next(m["text"] for m in convo["messages"] if m["channel"] == "voice") == \
        "let me talk to someone about my heater"
    [shown] = convo["calls"]
    assert shown["interaction_id"] == f"voice-{call.call_sid}" and shown["summary"] == SUMMARY
    [transfer] = shown["transfers"]
    assert transfer["id"] == transfer_id and transfer["outcome"] == "failed"
    assert [(r["target"], r["status"]) for r in transfer["rings"]] == [
        ("Mike Torres (on-call level 1)", "no-answer"), ("Priya Shah (on-call level 2)", "busy")]
    listed = (await client.get("/admin/api/escalations?property_id=pf_yale", headers=AUTH)).json()
    [filed] = [e for e in listed["escalations"] if e["id"] == transfer["escalation_id"]]
    assert filed["interaction_id"] == shown["interaction_id"] and filed["trace_url"] == shown["trace_url"]
    page = await client.get("/admin/conversations/p_marcus", headers=AUTH)
    assert page.status_code == 200 and SUMMARY in page.text and "failed" in page.text
