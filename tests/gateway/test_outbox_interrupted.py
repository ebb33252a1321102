"""A page's text or call whose sender died after claiming it and before writing the sid back:
after `INTERRUPTED_AFTER_S` the outbox sender asks Twilio's Messages or Calls list (the stand-in,
through the twilio library). Twilio had it: its sid is recorded and nothing is sent again. Twilio
never got it: it is sent now, once."""
from __future__ import annotations

from datetime import timedelta

import pytest

import spine.keys as keys
from gateway.outbox_sender import INTERRUPTED_AFTER_S, OutboxSender
from gateway.twilio.calls import TwilioCalls
from gateway.twilio.rest import TwilioRest
from spine.identity import utcnow
from spine.records import OutboxStatus
from tests.support.gateway_helpers import OfflinePool, settings_for, text

MIKE = "+13035551500"
LATER = timedelta(seconds=INTERRUPTED_AFTER_S + 1)


async def _claimed_page_rows(make_gateway, spine):
    """Marcus's gas page, its rows waiting (no Twilio yet) and both claimed by a sender that then died."""
    client, context = await make_gateway(OfflinePool(spine), with_twilio=False)
    await text(client, "I smell gas in my kitchen")
    [page_id] = {r.page_id for r in await spine.outbox(limit=500) if r.page_id}
    rows = [await spine.get_outbox(f"page-{page_id}-0-p_mike-{channel}") for channel in ("sms", "call")]
    for row in rows:
        assert await spine.mark_once(keys.outbox_send_marker(row.id))
    return context, rows


def _rest(twilio, context):
    auth = dict(api_base=twilio.url, account_sid=twilio.account_sid, auth_token=twilio.auth_token)
    return TwilioRest(context.http, **auth), TwilioCalls(context.http, **auth)


async def test_an_interrupted_page_that_reached_twilio_gets_its_sid_and_is_not_sent_again(make_gateway, spine,
                                                                                         twilio):
    context, (text_row, call_row) = await _claimed_page_rows(make_gateway, spine)
    sms, calls = _rest(twilio, context)
    sent = await sms.send(to=MIKE, from_=text_row.from_address, body=text_row.body)  # what the dead sender did
    call_sid = await calls.create(to=MIKE, from_=call_row.from_address, url="http://gateway/voice/oncall/x")
    await sms.send(to=MIKE, from_=text_row.from_address, body="another text to Mike")  # not this row's
    sender = OutboxSender(spine, settings_for(spine, twilio), context.http)
    assert await sender.send_due() == []  # within INTERRUPTED_AFTER_S: still the claimant's
    ended = {r.id: r for r in await sender.send_due(utcnow() + LATER)}
    assert (ended[text_row.id].status, ended[text_row.id].provider_id) == (OutboxStatus.SENT, sent.sid)
    assert (ended[call_row.id].status, ended[call_row.id].provider_id) == (OutboxStatus.SENT, call_sid)
    assert len([s for s in twilio.accepted() if s.body == text_row.body]) == 1 and len(twilio.calls) == 1
    assert (await spine.get_outbox(text_row.id)).status == OutboxStatus.SENT


async def test_an_interrupted_page_twilio_never_got_is_sent_once(make_gateway, spine, twilio):
    context, (text_row, call_row) = await _claimed_page_rows(make_gateway, spine)
    sms, _ = _rest(twilio, context)
    await sms.send(to=MIKE, from_=text_row.from_address, body=text_row.body)  # an earlier pass's text, before
    earlier = twilio.accepted()[0]
    earlier.created -= timedelta(seconds=10)  # ... this row was claimed: not this send
    senders = [OutboxSender(spine, settings_for(spine, twilio), context.http) for _ in range(2)]
    for sender in senders:  # two sweeps (a restarted scheduler beside the old): one resend
        await sender.send_due(utcnow() + LATER)
    assert len([s for s in twilio.accepted() if s.body == text_row.body]) == 2  # the earlier one, and this once
    assert [c.to for c in twilio.calls] == [MIKE]
    for row in (text_row, call_row):
        assert (await spine.get_outbox(row.id)).status == OutboxStatus.SENT
    await senders[0].send_due(utcnow() + LATER * 3)
    assert len(twilio.calls) == 1


@pytest.mark.parametrize("query", ["DateSent>=2026-01-01", "DateSent<=2000-01-01"])
async def test_the_stand_in_filters_its_lists_as_twilio_documents(twilio, query):
    import httpx

    async with httpx.AsyncClient(auth=(twilio.account_sid, twilio.auth_token)) as http:
        rest = TwilioRest(http, api_base=twilio.url, account_sid=twilio.account_sid, auth_token=twilio.auth_token)
        await rest.send(to=MIKE, from_="+12065550100", body="hello")
        await rest.send(to="+12065551001", from_="+12065550100", body="hi")
        url = f"{twilio.url}/2010-04-01/Accounts/{twilio.account_sid}/Messages.json?To=%2B13035551500&{query}"
        page = (await http.get(url)).json()
    assert [m["body"] for m in page["messages"]] == (["hello"] if ">=" in query else [])
    assert page["next_page_uri"] is None and page["page_size"] == 50
