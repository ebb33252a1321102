"""The Twilio REST client against the local Messages API stand-in, and outbound delivery
through the outbox."""
from __future__ import annotations

import httpx
import pytest

from gateway.sms.delivery import Delivery
from gateway.twilio.rest import TwilioRest, TwilioRestError
from spine.records import OptOut, OutboxStatus


@pytest.fixture
async def http():
    async with httpx.AsyncClient(timeout=5.0) as client:
        yield client


def rest_for(http, twilio, **overrides) -> TwilioRest:
    options = dict(api_base=twilio.url, account_sid=twilio.account_sid, auth_token=twilio.auth_token, backoff_s=0.01)
    options.update(overrides)
    return TwilioRest(http, **options)


async def test_send_creates_a_message_with_basic_auth(http, twilio):
    sent = await rest_for(http, twilio).send(to="+12065551001", from_="+12065550100", body="Help is on the way",
                                             status_callback="http://gateway.test/sms/twilio/status")
    assert sent.sid.startswith("SM") and len(sent.sid) == 34 and sent.status == "queued"
    [record] = twilio.accepted()
    assert record.form == {"To": "+12065551001", "From": "+12065550100", "Body": "Help is on the way",
                           "StatusCallback": "http://gateway.test/sms/twilio/status"}
    assert record.sid == sent.sid


async def test_wrong_credentials_are_twilio_error_20003(http, twilio):
    with pytest.raises(TwilioRestError) as raised:
        await rest_for(http, twilio, auth_token="wrong").send(to="+12065551001", from_="+12065550100", body="x")
    assert raised.value.status == 401 and raised.value.code == 20003
    assert twilio.accepted() == []


async def test_rate_limit_is_retried_but_a_server_error_is_not(http, twilio):
    twilio.fail_next(429, 20429, "Too Many Requests")
    sent = await rest_for(http, twilio).send(to="+12065551001", from_="+12065550100", body="retry me")
    assert sent.status == "queued" and len(twilio.sent) == 2
    twilio.fail_next(500, 20500, "Internal Server Error")
    with pytest.raises(TwilioRestError) as raised:
        await rest_for(http, twilio).send(to="+12065551001", from_="+12065550100", body="once only")
    assert raised.value.status == 500 and len(twilio.sent) == 3  # an ambiguous 5xx could double-text


async def test_unreachable_twilio_is_a_clear_error(http, twilio):
    with pytest.raises(TwilioRestError, match="cannot reach Twilio"):
        await rest_for(http, twilio, api_base="http://127.0.0.1:9").send(to="+12065551001", from_="+1206", body="x")


async def test_delivery_splits_sends_and_records_the_outbox(spine, http, twilio):
    delivery = Delivery(spine, rest_for(http, twilio), status_callback_url="http://gateway.test/sms/twilio/status")
    body = "word " * 700  # 3500 characters
    rows = await delivery.send(key="SMabc", to="+12065551001", from_="+12065550100", body=body)
    assert [r.id for r in rows] == ["SMabc-0", "SMabc-1", "SMabc-2"]
    assert all(r.status == OutboxStatus.SENT and r.provider_id for r in rows)
    assert [s.body for s in twilio.accepted()] == [r.body for r in rows]
    assert all(len(s.body) <= 1600 for s in twilio.accepted())
    assert (await spine.outbox_by_provider_id(rows[1].provider_id)).id == "SMabc-1"
    again = await delivery.send(key="SMabc", to="+12065551001", from_="+12065550100", body=body)
    assert [r.provider_id for r in again] == [r.provider_id for r in rows]  # never texted twice
    assert len(twilio.accepted()) == 3


async def test_delivery_without_credentials_holds_the_reply_in_the_outbox(spine):
    rows = await Delivery(spine, None).send(key="SMx", to="+12065551001", from_="+12065550100", body="later")
    assert rows[0].status == OutboxStatus.PENDING
    assert [m.id for m in await spine.outbox(OutboxStatus.PENDING)] == ["SMx-0"]


async def test_delivery_never_texts_an_opted_out_number(spine, http, twilio):
    await spine.set_opt_out(OptOut(address="+12065551001", opted_out=True, keyword="STOP"))
    rows = await Delivery(spine, rest_for(http, twilio)).send(key="SMy", to="+12065551001",
                                                              from_="+12065550100", body="hello")
    assert rows[0].status == OutboxStatus.BLOCKED and twilio.sent == []
    assert rows[0].error == "opted out of sms"  # the reason a started message's row gives, one spelling


async def test_delivery_records_a_refused_send_as_failed(spine, http, twilio):
    twilio.opted_out.add("+12065551001")  # opted out at Twilio (carrier STOP) but not here
    rows = await Delivery(spine, rest_for(http, twilio)).send(key="SMz", to="+12065551001",
                                                              from_="+12065550100", body="hello")
    assert rows[0].status == OutboxStatus.FAILED and "unsubscribed" in rows[0].error
    assert (await spine.get_outbox("SMz-0")).status == OutboxStatus.FAILED
