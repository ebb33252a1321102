"""Twilio's fallback URL: when the primary URL fails (a GatewayIngress replica that dies mid-request
answers 500 through Serve's proxy), Twilio posts the same signed parameters at once to the number's
fallback URL, adding ErrorCode and ErrorUrl. The fallback URL is /sms/twilio itself, so the message
is answered there: a new one runs its turn, one the primary already recorded is a redelivery."""
from __future__ import annotations

import logging
import re

import pytest

from gateway.cli.sms import inbound_form, new_message_sid
from gateway.twilio.signature import sign
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, MARCUS, PUBLIC_URL, YALE, ScriptedPool, text

URL = PUBLIC_URL + "/sms/twilio"


def _fallback(sid: str, body: str = "is the pool open?", **fields: str) -> dict[str, str]:
    form = inbound_form(from_=MARCUS, to=YALE, body=body, message_sid=sid, account_sid=ACCOUNT_SID)
    return {**form, "ErrorCode": "11200", "ErrorUrl": URL, **fields}


async def _post(client, form: dict[str, str]):
    response = await client.post("/sms/twilio", data=form, headers={"X-Twilio-Signature": sign(AUTH_TOKEN, URL, form)})
    return response, re.findall(r"<Message>(.*?)</Message>", response.text, re.S)


async def test_a_message_the_primary_never_recorded_is_answered_on_the_fallback(make_gateway, spine, caplog):
    pool = ScriptedPool(reply=lambda e: "The pool opens at 7.")
    client, _ = await make_gateway(pool)
    sid = new_message_sid()
    with caplog.at_level(logging.WARNING, logger="clara.sms"):
        response, messages = await _post(client, _fallback(sid))
    assert response.status_code == 200 and messages == ["The pool opens at 7."]
    assert [e.body for e in pool.submitted] == ["is the pool open?"]
    assert (await spine.get_inbound(sid)).reply == "The pool opens at 7."
    assert any("fallback URL" in r.getMessage() and "11200" in r.getMessage() for r in caplog.records)


async def test_a_fallback_for_a_message_the_primary_answered_replays_it_without_a_second_turn(make_gateway):
    pool = ScriptedPool(reply=lambda e: f"turn {len(pool.submitted)}")
    client, _ = await make_gateway(pool)
    sid = new_message_sid()
    first = await text(client, "is the pool open?", sid=sid)
    response, messages = await _post(client, _fallback(sid))
    assert response.status_code == 200
    assert first.messages == messages == ["turn 1"] and len(pool.submitted) == 1


@pytest.mark.parametrize("field,value", [("ErrorCode", "1120"), ("ErrorCode", "11200Body"),
                                         ("ErrorUrl", "javascript:alert(1)"), ("ErrorUrl", "")])
async def test_fallback_fields_in_a_shape_twilio_never_sends_are_refused(make_gateway, spine, field, value):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    sid = new_message_sid()
    response, _ = await _post(client, _fallback(sid, **{field: value}))
    assert response.status_code == 403 and field in response.text
    assert pool.submitted == [] and await spine.get_inbound(sid) is None
