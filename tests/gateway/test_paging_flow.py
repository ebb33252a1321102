"""A page end to end without Ray: Marcus's gas smell through the SMS webhook, the outbox sender
placing Mike's text and call on the Twilio stand-in, the call's TwiML, ACK by keypress or by SMS,
and Marcus told who has it."""
from __future__ import annotations

import pytest
from twilio.request_validator import RequestValidator

from gateway.outbox_sender import OutboxSender
from spine.oncall import PageStatus
from spine.records import OptOut, OutboxMessage, OutboxStatus
from tests.support.gateway_helpers import MARCUS, YALE, OfflinePool, settings_for, text

MIKE, PRIYA = "+13035551500", "+12065550150"


async def _gas(client, spine):
    reply = await text(client, "I smell gas in my kitchen")
    trace = await spine.get_trace(reply.interaction_id)
    [page_id] = {r.page_id for r in await spine.outbox(limit=500) if r.page_id}
    return reply, trace, await spine.get_page(page_id)


def _asgi_post(client):
    async def post(url: str, form: dict, headers: dict) -> str:
        return (await client.post(url, data=form, headers=headers)).text
    return post


async def test_a_gas_smell_pages_mike_by_text_and_call_and_a_keypress_takes_it(make_gateway, spine, twilio):
    client, context = await make_gateway(OfflinePool(spine))
    reply, _, page = await _gas(client, spine)
    assert "I've alerted the on-call team" in reply.messages[0] and "Mike Torres" in reply.messages[0]
    await context.pool.drain()  # the replica sends the turn's page rows at once, no tick needed
    [sms] = [s for s in twilio.accepted() if s.to == MIKE]
    assert page.code in sms.body and page.work_order_display_id in sms.body and "Reply ACK" in sms.body
    [call] = twilio.calls
    assert call.to == MIKE and call.form["From"] == YALE
    assert call.form["Url"] == f"{context.settings.public_url}/voice/oncall/{page.id}?person_id=p_mike"
    twiml, after = await twilio.answer(call, "1", post=_asgi_post(client))
    assert "<Gather" in twiml and 'numDigits="1"' in twiml and "Press 1" in twiml and "gas" in twiml
    assert "the page is yours" in after.lower()
    taken = await spine.get_page(page.id)
    assert taken.status == PageStatus.ACKNOWLEDGED and taken.acknowledged_by == "p_mike"
    await OutboxSender(spine, context.settings, context.http).send_due()
    told = [s for s in twilio.accepted() if s.to == MARCUS]
    assert [s.body for s in told] == ["Mike from maintenance has it and will be in touch."]
    assert any(s.to == MIKE and "You have the page" in s.body for s in twilio.accepted())
    wo = await spine.get_work_order(page.work_order_id)
    assert any("acknowledged by Mike" in n.text for n in wo.notes)
    assert (wo.assigned_vendor_id, wo.status) == ("v_inhouse", "scheduled")  # Mike's keypress is the in-house YES


async def test_ack_by_sms_from_the_paged_person_stops_the_ladder_before_any_turn(make_gateway, spine, twilio):
    client, context = await make_gateway(OfflinePool(spine), with_twilio=False)  # the page's rows wait
    _, _, page = await _gas(client, spine)
    pool = context.pool
    turns = len(pool.submitted)
    ack = await text(client, "ACK", from_=MIKE)
    assert len(pool.submitted) == turns  # no agent turn
    assert ack.messages and ack.messages[0].startswith(f"You have the page ({page.code})")
    assert (await spine.get_page(page.id)).status == PageStatus.ACKNOWLEDGED
    await OutboxSender(spine, settings_for(spine, twilio), context.http).send_due()
    assert twilio.calls == []  # the pending call of an acknowledged page never leaves
    assert (await spine.get_outbox(f"page-{page.id}-0-p_mike-call")).status == OutboxStatus.BLOCKED
    assert [s.body for s in twilio.accepted() if s.to == MARCUS] == ["Mike from maintenance has it and will be in "
                                                                     "touch."]


async def test_ack_from_someone_without_a_page_is_an_ordinary_message(make_gateway, spine):
    client, context = await make_gateway(OfflinePool(spine))
    await _gas(client, spine)
    turns = len(context.pool.submitted)
    await text(client, "ACK", from_=PRIYA)  # level 2: not paged yet
    assert len(context.pool.submitted) == turns + 1


async def test_a_work_order_and_an_escalation_in_one_turn_page_once(make_gateway, spine):
    client, _ = await make_gateway(OfflinePool(spine))
    _, trace, page = await _gas(client, spine)
    assert {c.name for c in trace.tool_calls} >= {"create_work_order", "escalate_to_human"}
    assert len(await spine.events("oncall/paged")) == 1
    assert page.reporter_person_id == "p_marcus" and page.unit == "204"
    assert page.escalation_id is not None and page.work_order_display_id is not None  # one page for both
    assert (await spine.page_for_escalation(page.escalation_id)).id == page.id  # what the staff console reads


async def test_no_plan_is_said_honestly(make_gateway, spine):
    await spine.clear_oncall_plan("pf_yale")
    client, _ = await make_gateway(OfflinePool(spine))
    reply = await text(client, "I smell gas in my kitchen")
    assert "I've alerted" not in reply.messages[0]
    assert "could not reach the on-call team" in reply.messages[0]
    assert [r for r in await spine.outbox(limit=500) if r.page_id] == []


@pytest.mark.parametrize("with_twilio", [False])
async def test_without_twilio_the_page_waits_in_the_outbox(make_gateway, spine, with_twilio):
    client, context = await make_gateway(OfflinePool(spine), with_twilio=with_twilio)
    _, _, page = await _gas(client, spine)
    await OutboxSender(spine, context.settings, context.http).send_due()
    rows: list[OutboxMessage] = [r for r in await spine.outbox(limit=500) if r.page_id == page.id]
    assert sorted(r.channel for r in rows) == ["sms", "voice"] and all(r.status == "pending" for r in rows)


async def test_an_sms_opt_out_is_still_called(make_gateway, spine, twilio):
    await spine.set_opt_out(OptOut(address=MIKE, opted_out=True, keyword="STOP"))
    client, context = await make_gateway(OfflinePool(spine))
    await _gas(client, spine)
    await context.pool.drain()
    assert [c.to for c in twilio.calls] == [MIKE] and not [s for s in twilio.accepted() if s.to == MIKE]


async def test_a_sender_that_read_a_row_before_it_was_sent_never_overwrites_it(make_gateway, spine, twilio):
    client, context = await make_gateway(OfflinePool(spine), with_twilio=False)
    _, _, page = await _gas(client, spine)
    stale = await spine.get_outbox(f"page-{page.id}-0-p_mike-sms")  # as a second sender read it
    sender = OutboxSender(spine, settings_for(spine, twilio), context.http)
    assert (await sender.send(stale)).status == OutboxStatus.SENT
    await text(client, "ACK", from_=MIKE)
    await sender.send(stale)  # the stale read again, now that the page is acknowledged
    row = await spine.get_outbox(stale.id)
    assert row.status == OutboxStatus.SENT and row.provider_id is not None
    assert len([s for s in twilio.accepted() if s.to == MIKE and "Reply ACK" in s.body]) == 1


async def test_the_paging_call_routes_refuse_an_unsigned_request_and_a_person_the_page_did_not_ring(
        make_gateway, spine, twilio):
    client, context = await make_gateway(OfflinePool(spine))
    _, _, page = await _gas(client, spine)
    await context.pool.drain()
    [call] = twilio.calls
    unsigned = await client.post(call.form["Url"], data={"CallSid": "CA" + "0" * 32, "Digits": "1"})
    assert unsigned.status_code == 403
    url = call.form["Url"].replace("?person_id=p_mike", "/gather?person_id=p_priya")  # Priya was not rung
    form = {"AccountSid": twilio.account_sid, "CallSid": call.sid, "From": YALE, "To": PRIYA, "Digits": "1"}
    headers = {"X-Twilio-Signature": RequestValidator(twilio.auth_token).compute_signature(url, form)}
    answer = await client.post(url, data=form, headers=headers)
    assert answer.status_code == 200 and "no longer open" in answer.text
    assert (await spine.get_page(page.id)).status == PageStatus.PAGING


async def test_a_page_call_whose_script_holds_control_characters_is_well_formed_twiml(make_gateway, spine, twilio):
    # Issue 40 item 17: a page's script carrying \x0b or \x1b (a brief as typed) made TwiML no XML parser reads.
    import xml.etree.ElementTree as ET

    from desk.oncall.paging import PageRequest, start_page

    client, context = await make_gateway(OfflinePool(spine))
    await start_page(spine, PageRequest(page_id="pg_ctrl", property_id="pf_yale", reason="gas\x0b smell\x1b[0m",
                                        unit="204", reporter_person_id="p_marcus", interaction_id="int_ctrl"))
    await OutboxSender(spine, context.settings, context.http).send_due()
    [call] = twilio.calls
    twiml, _ = await twilio.answer(call, post=_asgi_post(client))
    said = " ".join(e.text or "" for e in ET.fromstring(twiml).iter("Say"))
    assert "gas smell[0m" in said and "\x0b" not in said and "\x1b" not in said


def test_an_sms_reply_with_control_characters_renders_well_formed_twiml():
    import xml.etree.ElementTree as ET

    from gateway.twilio.twiml_sms import render_twiml

    [message] = ET.fromstring(render_twiml(["Your code is 4471\x0b\x1b[1m, ok\ud800?"])).iter("Message")
    assert message.text == "Your code is 4471[1m, ok?"
