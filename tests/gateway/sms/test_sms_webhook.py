"""POST /sms/twilio and /sms/twilio/status over HTTP (in-process ASGI), with turn runners that
implement the pool's interface and the Twilio REST stand-in for late replies."""
from __future__ import annotations

import asyncio

import pytest

from gateway.channel_inbound import APOLOGY
from gateway.cli.sms import inbound_form, new_message_sid
from gateway.sms.options import SmsOptions
from gateway.twilio.signature import sign
from spine.records import EventKind, InboundStatus, OutboxStatus
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, MARCUS, PUBLIC_URL, YALE, ScriptedPool, text


async def post_form(client, form: dict, *, signature: str | None = "sign", path: str = "/sms/twilio",
                    headers: dict | None = None):
    headers = dict(headers or {})
    if signature == "sign":
        headers["X-Twilio-Signature"] = sign(AUTH_TOKEN, PUBLIC_URL + path, form)
    elif signature is not None:
        headers["X-Twilio-Signature"] = signature
    return await client.post(path, data=form, headers=headers)


def form(body: str = "hello", **overrides) -> dict:
    values = inbound_form(from_=MARCUS, to=YALE, body=body, message_sid=new_message_sid(), account_sid=ACCOUNT_SID)
    values.update(overrides)
    return {k: v for k, v in values.items() if v is not None}


async def test_a_signed_message_runs_one_turn_and_answers_inline(make_gateway, spine):
    pool = ScriptedPool(reply=lambda e: "Help is on the way Marcus")
    client, _ = await make_gateway(pool)
    exchange = await text(client, "my toilet is overflowing!")
    assert exchange.status_code == 200 and exchange.messages == ["Help is on the way Marcus"]
    [envelope] = pool.submitted
    assert envelope.message_id == exchange.message_sid and envelope.interaction_id == exchange.interaction_id
    assert envelope.interaction_id.startswith("ix_") and envelope.channel == "sms"
    assert (envelope.from_address, envelope.to_address, envelope.property_id) == (MARCUS, YALE, "pf_yale")
    assert envelope.participant_id == "p_marcus" and envelope.body == "my toilet is overflowing!"
    stored = await spine.get_inbound(exchange.message_sid)
    assert stored.status == InboundStatus.ANSWERED and stored.reply == "Help is on the way Marcus"
    assert stored.interaction_id == envelope.interaction_id


async def test_unknown_sender_reaches_the_turn_without_a_participant(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    await text(client, "do you have 2BR units next month?", from_="+14155559876")
    assert pool.submitted[0].participant_id is None


async def test_media_urls_reach_the_turn(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    urls = ["https://api.twilio.com/media/ME1", "https://api.twilio.com/media/ME2"]
    await text(client, "here is the leak", media=urls)
    assert pool.submitted[0].media_urls == urls


@pytest.mark.parametrize("signature", [None, "forged", "sign-other-url"])
async def test_forged_or_missing_signature_is_403_and_no_turn(make_gateway, spine, signature):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    values = form("my toilet is overflowing!")
    if signature == "sign-other-url":
        signature = sign(AUTH_TOKEN, "http://elsewhere.test/sms/twilio", values)
    response = await post_form(client, values, signature=signature)
    assert response.status_code == 403 and "X-Twilio-Signature" in response.text
    assert pool.submitted == [] and await spine.get_inbound(values["MessageSid"]) is None


async def test_a_signature_over_different_params_is_rejected(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    values = form("hello")
    signature = sign(AUTH_TOKEN, PUBLIC_URL + "/sms/twilio", values)
    response = await post_form(client, {**values, "Body": "tampered"}, signature=signature)
    assert response.status_code == 403 and pool.submitted == []


async def test_without_an_auth_token_nothing_is_accepted(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool, twilio_auth_token=None)
    response = await post_form(client, form())
    assert response.status_code == 403 and "TWILIO_AUTH_TOKEN" in response.text and pool.submitted == []


async def test_oversize_body_is_413(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    response = await post_form(client, form("x" * (65 * 1024)))
    assert response.status_code == 413 and pool.submitted == []


@pytest.mark.parametrize("missing", ["MessageSid", "From", "To"])
async def test_malformed_form_is_400_with_the_reason(make_gateway, missing):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    values = form(**{missing: None, "SmsMessageSid": None, "SmsSid": None})
    response = await post_form(client, values)
    assert response.status_code == 400 and f"missing {missing}" in response.text and pool.submitted == []


@pytest.mark.parametrize("count", ["\u00b2", "\u0663", "-1", "1e3"])  # '²'.isdigit() is True, int('²') raises
async def test_a_signed_num_media_that_is_no_ascii_count_is_400_not_500(make_gateway, spine, count):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    values = form(NumMedia=count)
    response = await post_form(client, values)
    assert response.status_code == 400 and "NumMedia must be a whole number" in response.text, response.text
    assert pool.submitted == [] and await spine.get_inbound(values["MessageSid"]) is None


async def test_a_redelivered_message_sid_gets_the_same_answer_without_a_second_turn(make_gateway, spine):
    pool = ScriptedPool(reply=lambda e: f"turn {len(pool.submitted)}")
    client, _ = await make_gateway(pool)
    sid = new_message_sid()
    first = await text(client, "hello", sid=sid)
    second = await text(client, "hello", sid=sid)
    assert first.messages == second.messages == ["turn 1"] and len(pool.submitted) == 1


async def test_a_redelivery_during_the_first_turn_waits_for_it(make_gateway):
    pool = ScriptedPool(reply=lambda e: "slow answer", delay_s=0.4)
    client, _ = await make_gateway(pool)
    sid = new_message_sid()
    first, second = await asyncio.gather(text(client, "hi", sid=sid), text(client, "hi", sid=sid))
    assert first.messages == second.messages == ["slow answer"] and len(pool.submitted) == 1


async def test_a_redelivery_that_outwaits_its_budget_is_acknowledged_empty(make_gateway):
    pool = ScriptedPool(delay_s=0.6)
    client, _context = await make_gateway(pool, sms_options=SmsOptions(redelivery_wait_s=0.1))
    sid = new_message_sid()
    first = asyncio.create_task(text(client, "hi", sid=sid))
    await asyncio.sleep(0.1)
    second = await text(client, "hi", sid=sid)
    assert second.status_code == 200 and second.messages == []
    assert (await first).messages == ["echo: hi"] and len(pool.submitted) == 1


@pytest.mark.parametrize("word", ["STOP", "stop", " Quit ", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END"])
async def test_stop_words_opt_out_and_then_nothing_is_sent(make_gateway, spine, twilio, word):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    assert (await text(client, word)).messages == []
    assert await spine.is_opted_out(MARCUS)
    after = await text(client, "my toilet is overflowing!")
    assert after.status_code == 200 and after.messages == [] and pool.submitted == []
    assert twilio.sent == []
    assert [e.reason for e in await spine.events(EventKind.OPTED_OUT_INBOUND)] == ["sender_opted_out"]


@pytest.mark.parametrize("word", ["START", "yes", "UNSTOP"])
async def test_start_words_opt_back_in(make_gateway, spine, word):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    await text(client, "STOP")
    back = await text(client, word)
    assert len(back.messages) == 1 and "opted back in" in back.messages[0] and pool.submitted == []
    assert not await spine.is_opted_out(MARCUS)
    assert (await text(client, "hello again")).messages == ["echo: hello again"]


@pytest.mark.parametrize("word", ["Yes", "START", "unstop"])
async def test_start_words_from_a_number_never_opted_out_are_ordinary_messages(make_gateway, spine, word):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    reply = await text(client, word)
    assert reply.messages == [f"echo: {word}"] and len(pool.submitted) == 1
    assert await spine.events(EventKind.OPT_IN) == []


@pytest.mark.parametrize("word", ["HELP", "info"])
async def test_help_words_get_help_text_without_a_turn(make_gateway, word):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    reply = await text(client, word)
    assert len(reply.messages) == 1 and "JP Yale Station" in reply.messages[0] and "STOP" in reply.messages[0]
    assert pool.submitted == []


async def test_a_sentence_containing_stop_is_an_ordinary_message(make_gateway, spine):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    await text(client, "please stop the water")
    assert len(pool.submitted) == 1 and not await spine.is_opted_out(MARCUS)


async def test_unknown_to_number_is_an_empty_answer_and_an_event(make_gateway, spine):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    reply = await text(client, "hello", to="+15555550123")
    assert reply.status_code == 200 and reply.messages == [] and pool.submitted == []
    [event] = await spine.events(EventKind.UNKNOWN_NUMBER)
    assert event.detail["to_last4"] == "0123" and event.phone_last4 == "1001"


async def test_a_long_reply_is_split_into_several_messages(make_gateway):
    long_reply = " ".join(f"step{n} do this." for n in range(400))
    client, _ = await make_gateway(ScriptedPool(reply=lambda e: long_reply))
    reply = await text(client, "how do I fix it?")
    assert len(reply.messages) >= 3 and all(len(m) <= 1600 for m in reply.messages)
    assert " ".join(reply.messages).split() == long_reply.split()


async def test_a_failing_turn_gets_the_apology_and_a_durable_failure_record(make_gateway, spine):
    client, _ = await make_gateway(ScriptedPool(error=RuntimeError("host exploded")))
    reply = await text(client, "my toilet is overflowing!")
    assert reply.status_code == 200 and reply.messages == [APOLOGY]
    stored = await spine.get_inbound(reply.message_sid)
    assert stored.status == InboundStatus.FAILED and "host exploded" in stored.failure
    [event] = await spine.events(EventKind.INBOUND_FAILED)
    assert event.detail["message_sid"] == reply.message_sid  # an id is not a phone: kept whole
    again = await text(client, "my toilet is overflowing!", sid=reply.message_sid)
    assert again.messages == [APOLOGY]


async def test_an_empty_reply_is_a_failure_not_silence(make_gateway, spine):
    client, _ = await make_gateway(ScriptedPool(reply=lambda e: "  "))
    reply = await text(client, "hello")
    assert reply.messages == [APOLOGY]
    assert (await spine.get_inbound(reply.message_sid)).status == InboundStatus.FAILED


async def test_a_slow_turn_is_acknowledged_then_sent_by_rest(make_gateway, spine, twilio):
    pool = ScriptedPool(reply=lambda e: "late but here", delay_s=0.5)
    client, context = await make_gateway(pool, sms_options=SmsOptions(inline_budget_s=0.1))
    reply = await text(client, "my toilet is overflowing!")
    assert reply.status_code == 200 and reply.messages == []
    [sent] = await asyncio.to_thread(twilio.wait_for_sends, 1, 5.0)
    assert (sent.to, sent.form["From"], sent.body) == (MARCUS, YALE, "late but here")
    assert sent.form["StatusCallback"] == PUBLIC_URL + "/sms/twilio/status"
    await context.sms.drain()
    row = await spine.get_outbox(f"{reply.message_sid}-0")
    assert row.status == OutboxStatus.SENT and row.provider_id == sent.sid
    assert (await spine.get_inbound(reply.message_sid)).status == InboundStatus.ANSWERED
    redelivered = await text(client, "my toilet is overflowing!", sid=reply.message_sid)
    assert redelivered.messages == [] and len(twilio.sent) == 1 and len(pool.submitted) == 1
    assert [e.reason for e in await spine.events(EventKind.REPLY_DEFERRED)] == ["turn_exceeded_inline_budget"]


async def test_a_slow_turn_without_twilio_credentials_waits_in_the_outbox(make_gateway, spine, twilio):
    client, context = await make_gateway(ScriptedPool(delay_s=0.3), sms_options=SmsOptions(inline_budget_s=0.05),
                                         with_twilio=False)
    reply = await text(client, "hello")
    await context.sms.drain()
    [row] = await spine.outbox(OutboxStatus.PENDING)
    assert row.id == f"{reply.message_sid}-0" and row.body == "echo: hello" and twilio.sent == []


async def test_a_stop_during_a_slow_turn_means_the_late_reply_is_not_sent(make_gateway, spine, twilio):
    client, context = await make_gateway(ScriptedPool(delay_s=0.4), sms_options=SmsOptions(inline_budget_s=0.05))
    hello = await text(client, "hello")
    await text(client, "STOP")
    await context.sms.drain()
    assert twilio.sent == [] and await spine.outbox(OutboxStatus.PENDING) == []
    record = await spine.get_inbound(hello.message_sid)  # blocked, the reply kept for the operator
    assert (record.status, record.reply) == (InboundStatus.BLOCKED, "echo: hello")


async def test_a_slow_turn_that_fails_sends_the_apology_by_rest(make_gateway, spine, twilio):
    client, context = await make_gateway(ScriptedPool(delay_s=0.3, error=RuntimeError("boom")),
                                         sms_options=SmsOptions(inline_budget_s=0.05))
    reply = await text(client, "hello")
    await context.sms.drain()
    assert [s.body for s in twilio.accepted()] == [APOLOGY]
    assert (await spine.get_inbound(reply.message_sid)).status == InboundStatus.FAILED


async def test_status_callback_updates_the_outbox_by_provider_sid(make_gateway, spine, twilio):
    client, context = await make_gateway(ScriptedPool(delay_s=0.2), sms_options=SmsOptions(inline_budget_s=0.05))
    reply = await text(client, "hello")
    await context.sms.drain()
    sid = twilio.accepted()[0].sid
    callback = {"MessageSid": sid, "MessageStatus": "undelivered", "ErrorCode": "30003", "AccountSid": ACCOUNT_SID}
    assert (await post_form(client, callback, signature="forged", path="/sms/twilio/status")).status_code == 403
    assert (await spine.get_outbox(f"{reply.message_sid}-0")).status == OutboxStatus.SENT
    response = await post_form(client, callback, path="/sms/twilio/status",
                               headers={"I-Twilio-Idempotency-Token": "tok-1"})
    assert response.status_code == 204
    row = await spine.get_outbox(f"{reply.message_sid}-0")
    assert row.status == OutboxStatus.FAILED and "30003" in row.error
    unknown = await post_form(client, {**callback, "MessageSid": "SM" + "0" * 32}, path="/sms/twilio/status")
    assert unknown.status_code == 204
    bad = await post_form(client, {"MessageSid": sid, "AccountSid": ACCOUNT_SID}, path="/sms/twilio/status")
    assert bad.status_code == 400 and "MessageStatus" in bad.text


async def test_a_store_outage_is_an_apology_not_a_500(tmp_path):
    import httpx

    from gateway.app import create_app
    from gateway.context import GatewayContext
    from spine.repo import Spine
    from spine.store.sqlite import SqliteStore
    from tests.support.gateway_helpers import settings_for

    down = Spine(SqliteStore(tmp_path / "down.db"))
    await down.store.close()  # every store call now fails, as an unreachable store does
    pool = ScriptedPool()
    context = GatewayContext(settings_for(down, None), down, pool)
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app(context)), base_url=PUBLIC_URL) as client:
        reply = await text(client, "my toilet is overflowing!")
    await context.http.aclose()
    assert reply.status_code == 200 and reply.messages == [APOLOGY] and pool.submitted == []


@pytest.mark.parametrize("sender", ["whatsapp:+14155551234", "+1 415 555 1234 ext"])
async def test_a_sender_that_is_not_a_phone_is_refused_clearly_masked_and_recorded(make_gateway, spine, caplog,
                                                                                   sender):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    signed = form("is a 2BR available?", From=sender)
    with caplog.at_level("INFO"):
        r = await post_form(client, signed)
    assert r.status_code == 200 and "phone numbers only" in r.text and pool.submitted == []
    stored = await spine.get_inbound(signed["MessageSid"])
    assert stored is not None and stored.status == InboundStatus.ANSWERED and stored.body == "is a 2BR available?"
    assert "phone numbers only" in stored.reply
    assert "4155551234" not in stored.from_address.replace(" ", "") and "…1234" in stored.from_address
    logged = " ".join(r.getMessage() for r in caplog.records).replace(" ", "")
    assert "4155551234" not in logged and "…1234" in logged
    [event] = await spine.events("gateway/unsupported-sender")
    assert "4155551234" not in str(event.detail).replace(" ", "")
