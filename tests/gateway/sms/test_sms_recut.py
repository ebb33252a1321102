"""Signed Twilio webhooks that cannot be re-cut. Twilio's signature runs the sorted names and
values together with no separator, so a captured request can be cut into another under the same
signature; each attack below is first shown to keep a valid signature, then refused (403, logged
with the parameter name) without anything reaching a turn."""
from __future__ import annotations

import logging

import pytest

from gateway.cli.sms import inbound_form, new_message_sid
from gateway.twilio.signature import sign, signature_valid
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, PUBLIC_URL, ScriptedPool

MARCUS, YALE = "+12065551001", "+12065550100"
URL = PUBLIC_URL + "/sms/twilio"


def _captured(body: str) -> dict[str, str]:
    return inbound_form(from_=MARCUS, to=YALE, body=body, message_sid=new_message_sid(), account_sid=ACCOUNT_SID)


async def _replay(client, form, signature: str, path: str = "/sms/twilio"):
    return await client.post(path, data=form, headers={"X-Twilio-Signature": signature})


def _absorb_next(form: dict[str, str], name: str) -> dict[str, str]:
    """`name`'s value swallows the parameter sorted after it: the same signed string."""
    keys = sorted(form)
    following = keys[keys.index(name) + 1]
    recut = {k: v for k, v in form.items() if k != following}
    recut[name] = form[name] + following + form[following]
    return recut


async def test_a_message_sid_recut_into_a_new_message_is_refused(make_gateway, spine, caplog):
    pool = ScriptedPool(reply=lambda e: "A work order is open.")
    client, _ = await make_gateway(pool)
    original = _captured("my toilet is overflowing!")
    signature = sign(AUTH_TOKEN, URL, original)
    assert (await _replay(client, original, signature)).status_code == 200
    recut = _absorb_next(original, "MessageSid")
    assert recut["MessageSid"] != original["MessageSid"] and signature_valid(AUTH_TOKEN, URL, recut, signature)
    with caplog.at_level(logging.WARNING, logger="clara.sms"):
        refused = await _replay(client, recut, signature)
    assert refused.status_code == 403 and "MessageSid" in refused.text
    assert any("MessageSid" in r.getMessage() for r in caplog.records)
    assert len(pool.submitted) == 1 and await spine.get_inbound(recut["MessageSid"]) is None


async def test_a_body_cut_short_into_a_junk_parameter_is_refused(make_gateway, caplog):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    original = _captured("Accept the 12 month renewal. Don't, wait, I need to think")
    signature = sign(AUTH_TOKEN, URL, original)
    kept = "Accept the 12 month renewal. "
    recut = {**original, "Body": kept, "D": original["Body"][len(kept + "D"):]}
    assert signature_valid(AUTH_TOKEN, URL, recut, signature)
    with caplog.at_level(logging.WARNING, logger="clara.sms"):
        refused = await _replay(client, recut, signature)
    assert refused.status_code == 403 and "D:" in refused.text
    assert any("parameter D" in r.getMessage() for r in caplog.records)
    assert pool.submitted == []


async def test_duplicated_keys_are_refused(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    form = list(_captured("hello").items()) + [("Body", "and accept the renewal")]
    signature = sign(AUTH_TOKEN, URL, _multi(form))
    from urllib.parse import urlencode

    refused = await client.post("/sms/twilio", content=urlencode(form), headers={
        "X-Twilio-Signature": signature, "Content-Type": "application/x-www-form-urlencoded"})
    assert refused.status_code == 403 and "Body" in refused.text and pool.submitted == []


def _multi(items):
    from starlette.datastructures import ImmutableMultiDict

    return ImmutableMultiDict(items)


@pytest.mark.parametrize("field, value", [("MessageSid", "SM123"), ("MessageSid", "XX" + "a" * 32),
                                          ("SmsSid", "SM" + "g" * 32), ("AccountSid", "AC" + "2" * 32)])
async def test_sids_in_the_wrong_shape_or_account_are_refused(make_gateway, field, value):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    form = {**_captured("hello"), field: value}
    refused = await _replay(client, form, sign(AUTH_TOKEN, URL, form))
    assert refused.status_code == 403 and field in refused.text and pool.submitted == []


async def test_media_and_geographic_fields_are_twilios_own(make_gateway):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    form = {**_captured("photo of the leak"), "NumMedia": "1", "MediaUrl0": "https://api.twilio.com/m/1",
            "MediaContentType0": "image/jpeg", "FromCity": "SEATTLE", "FromZip": "98101", "ToState": "WA"}
    ok = await _replay(client, form, sign(AUTH_TOKEN, URL, form))
    assert ok.status_code == 200 and len(pool.submitted) == 1


async def test_a_status_callback_with_a_foreign_parameter_is_refused(make_gateway):
    client, _ = await make_gateway(ScriptedPool())
    path = "/sms/twilio/status"
    callback = {"MessageSid": new_message_sid(), "MessageStatus": "delivered", "AccountSid": ACCOUNT_SID}
    assert (await _replay(client, callback, sign(AUTH_TOKEN, PUBLIC_URL + path, callback), path)).status_code == 204
    recut = {**callback, "MessageStatusX": "failed"}
    refused = await _replay(client, recut, sign(AUTH_TOKEN, PUBLIC_URL + path, recut), path)
    assert refused.status_code == 403 and "MessageStatusX" in refused.text


# -- finding 11: a channel's parameter names only on that channel ---------------------------------
@pytest.mark.parametrize("name", ["Forwarded", "ButtonText", "ButtonPayload", "ChannelMetadata", "ProfileName",
                                  "WaId", "Latitude", "ReferralBody"])
async def test_whatsapp_parameters_on_an_sms_from_a_phone_are_a_400(make_gateway, caplog, name):
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    form = {**_captured("hello"), name: "x"}
    with caplog.at_level(logging.WARNING):
        refused = await _replay(client, form, sign(AUTH_TOKEN, URL, form))
    assert refused.status_code == 400 and name in refused.text and "WhatsApp" in refused.text
    assert any(f"parameter {name}" in r.getMessage() for r in caplog.records) and pool.submitted == []


async def test_a_body_recut_into_a_whatsapp_parameter_is_refused(make_gateway):
    """Body and From have Forwarded between them: a captured SMS whose Body ends in "Forwarded..."
    re-cut into a shorter Body and a Forwarded parameter keeps its signature."""
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    original = _captured("Accept the 12 month renewal. Forwardedno, wait, don't")
    signature = sign(AUTH_TOKEN, URL, original)
    recut = {**original, "Body": "Accept the 12 month renewal. ", "Forwarded": "no, wait, don't"}
    assert signature_valid(AUTH_TOKEN, URL, recut, signature)
    refused = await _replay(client, recut, signature)
    assert refused.status_code == 400 and "Forwarded" in refused.text and pool.submitted == []


async def test_whatsapp_parameters_from_a_whatsapp_sender_pass_the_form_check(make_gateway):
    """A WhatsApp message's own names pass the check; the sender is then answered as any non-phone
    sender is (WhatsApp is not served: "phone numbers only")."""
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    form = {**_captured("hello"), "From": "whatsapp:+14155551234", "ProfileName": "Pat", "WaId": "14155551234",
            "Forwarded": "true", "ButtonText": "Yes"}
    answered = await _replay(client, form, sign(AUTH_TOKEN, URL, form))
    assert answered.status_code == 200 and "phone numbers only" in answered.text and pool.submitted == []
