"""POST /email/inbound refuses what is not a fresh, signed Mailgun route POST, without a turn,
and answers in the codes Mailgun's retries read (200 done, 406 rejected, others retried)."""
from __future__ import annotations

import hmac
import json
import time

import pytest

from gateway.email.route_form import route_form
from gateway.email.signature import sign, signature_valid
from spine.records import EventKind, InboundStatus
from tests.support.gateway_helpers import ScriptedPool


def _form(ch, **overrides) -> dict[str, str]:
    form = route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com", to="yale@clara.example",
                      text="is the gym open?")
    form.update(overrides)
    return form


def test_the_signature_is_the_hex_hmac_sha256_of_timestamp_and_token():
    expected = hmac.new(b"key", b"1700000000abc", "sha256").hexdigest()  # Mailgun's recipe, by hand
    assert sign("key", "1700000000", "abc") == expected
    assert signature_valid("key", "1700000000", "abc", expected.upper())
    assert not signature_valid("key", "1700000001", "abc", expected)


@pytest.mark.parametrize("drop", ["signature", "token", "timestamp"])
async def test_a_missing_signature_field_is_401_and_runs_no_turn(make_channels, drop):
    ch = await make_channels(ScriptedPool())
    form = _form(ch)
    del form[drop]
    r = await ch.post_form(form)
    assert r.status_code == 401 and "missing" in r.text
    assert ch.pool.submitted == []


async def test_a_forged_signature_is_403(make_channels):
    ch = await make_channels(ScriptedPool())
    r = await ch.post_form(_form(ch, signature="0" * 64))
    assert r.status_code == 403 and "does not match" in r.text and ch.pool.submitted == []


async def test_without_a_signing_key_nothing_is_accepted(make_channels):
    ch = await make_channels(ScriptedPool(), mailgun_signing_key=None)
    r = await ch.post_form(_form(ch))
    assert r.status_code == 403 and "MAILGUN_SIGNING_KEY" in r.text and ch.pool.submitted == []


async def test_a_stale_timestamp_is_refused_even_when_signed(make_channels):
    ch = await make_channels(ScriptedPool())
    old = str(int(time.time()) - 3600)
    r = await ch.post_form(route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com",
                                      to="yale@clara.example", text="hi", timestamp=old))
    assert r.status_code == 403 and "too far from now" in r.text and ch.pool.submitted == []


async def test_a_replayed_token_with_another_body_is_refused(make_channels):
    ch = await make_channels(ScriptedPool())
    first = _form(ch)
    assert (await ch.post_form(first)).status_code == 200
    forged = route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com", to="yale@clara.example",
                        text="cancel my lease", timestamp=first["timestamp"], token=first["token"])
    r = await ch.post_form(forged)
    assert r.status_code == 403 and "already used" in r.text
    assert [e.body for e in ch.pool.submitted] == ["is the gym open?"]


async def test_a_token_first_seen_on_a_refused_post_can_carry_no_other_message(make_channels, spine):
    """The 406 (an address no property receives at) bound the token to its Message-Id: the same
    signature cannot then carry a message to a real address."""
    ch = await make_channels(ScriptedPool())
    refused = _form(ch, recipient="nobody@clara.example")
    assert (await ch.post_form(refused)).status_code == 406
    assert (await ch.post_form(refused)).status_code == 406  # Mailgun never retries a 406, but it is no replay
    forged = route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com", to="yale@clara.example",
                        text="cancel my lease", timestamp=refused["timestamp"], token=refused["token"])
    r = await ch.post_form(forged)
    assert r.status_code == 403 and "another message" in r.text
    assert ch.pool.submitted == [] and await spine.inbound_with_status(InboundStatus.ACCEPTED) == []


async def test_a_token_first_seen_on_a_malformed_post_can_carry_no_message(make_channels):
    ch = await make_channels(ScriptedPool())
    malformed = _form(ch, **{"attachment-count": "two"})
    assert (await ch.post_form(malformed)).status_code == 400
    forged = route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com", to="yale@clara.example",
                        text="cancel my lease", timestamp=malformed["timestamp"], token=malformed["token"])
    assert (await ch.post_form(forged)).status_code == 403 and ch.pool.submitted == []


async def test_the_same_token_with_the_same_message_id_is_a_retry_not_a_replay(make_channels):
    """Mailgun re-posting one message under one token (the first answer lost): deduplicated by
    the Message-Id, never refused, even with the body re-encoded."""
    ch = await make_channels(ScriptedPool())
    first = _form(ch)
    assert (await ch.post_form(first)).json()["outcome"] == "answered"
    again = route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com", to="yale@clara.example",
                       text="is the gym open?", message_id=first["Message-Id"].strip("<>"),
                       timestamp=first["timestamp"], token=first["token"])
    r = await ch.post_form(again)
    assert r.status_code == 200 and r.json()["outcome"] == "duplicate"
    assert len(ch.pool.submitted) == 1


async def test_a_redelivered_message_id_runs_one_turn(make_channels):
    ch = await make_channels(ScriptedPool())
    same = _form(ch)
    again = route_form(signing_key=ch.mailgun.signing_key, from_="marcus@example.com", to="yale@clara.example",
                       text="is the gym open?", message_id=same["Message-Id"].strip("<>"))
    assert (await ch.post_form(same)).json()["outcome"] == "answered"
    assert (await ch.post_form(same)).json()["outcome"] == "duplicate"  # the same POST again (same token)
    assert (await ch.post_form(again)).json()["outcome"] == "duplicate"  # re-signed, same Message-Id
    assert len(ch.pool.submitted) == 1 and len(ch.mailgun.wait_for_sends(1)) == 1


async def test_an_address_no_property_receives_mail_at_is_406_so_mailgun_stops(make_channels):
    ch = await make_channels(ScriptedPool())
    r = await ch.post_form(_form(ch, recipient="nobody@clara.example"))
    assert r.status_code == 406 and "nobody@clara.example" in r.text and ch.pool.submitted == []


@pytest.mark.parametrize("field,value,reason", [
    ("from", "", "from is empty"),
    ("from", "a@x.example, b@y.example", "names 2 addresses"),
    ("from", "not an address", "not an email address"),
    ("recipient", "", "missing recipient"),
    ("message-headers", "{not json", "not JSON"),
    ("message-headers", json.dumps({"From": "x"}), "list of [name, value]"),
    ("attachment-count", "two", "whole number"),
    ("attachment-count", "\u00b2", "whole number"),  # '²'.isdigit() is True, int('²') raises
    pytest.param("message-headers", "[" * 5000 + "]" * 5000, "not JSON", id="deep-message-headers"),  # RecursionError
])
async def test_malformed_fields_are_400_with_the_reason_and_no_turn(make_channels, spine, field, value, reason):
    ch = await make_channels(ScriptedPool())
    r = await ch.post_form(_form(ch, **{field: value}))
    assert r.status_code == 400 and reason in r.text, r.text
    assert ch.pool.submitted == [] and await spine.inbound_with_status(InboundStatus.ACCEPTED) == []


async def test_a_message_without_message_id_is_400(make_channels):
    ch = await make_channels(ScriptedPool())
    form = _form(ch, **{"Message-Id": ""})
    form["message-headers"] = json.dumps([h for h in json.loads(form["message-headers"]) if h[0] != "Message-Id"])
    r = await ch.post_form(form)
    assert r.status_code == 400 and "Message-Id" in r.text


async def test_a_body_that_is_not_a_form_is_400(make_channels):
    ch = await make_channels(ScriptedPool())
    r = await ch.client.post("/email/inbound", content=b"--x\r\nbroken", headers={"content-type": "multipart/form-data"})
    assert r.status_code == 400 and ch.pool.submitted == []


async def test_an_oversize_body_is_413_unread(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    r = await ch.client.post("/email/inbound", content=b"x" * 10,
                             headers={"content-type": "application/x-www-form-urlencoded",
                                      "content-length": str(30 * 1024 * 1024)})
    assert r.status_code == 413 and ch.pool.submitted == []


async def test_attachments_are_counted_and_never_read(make_channels):
    ch = await make_channels(ScriptedPool())
    form = _form(ch)
    files = {"attachment-1": ("photo.jpg", b"\xff\xd8" + b"0" * 2048, "image/jpeg"),
             "attachment-2": ("lease.pdf", b"%PDF-1.4", "application/pdf")}
    r = await ch.post_form({**form, "attachment-count": "2"}, files=files)
    assert r.status_code == 200, r.text
    assert ch.pool.submitted[-1].body.endswith("[2 attachment(s) not read]")


async def test_a_store_that_cannot_record_the_message_is_503_so_mailgun_retries(make_channels, spine):
    ch = await make_channels(ScriptedPool())

    async def down(*_args, **_kwargs):
        raise ConnectionError("store unreachable")

    spine.accept_inbound = down  # the store's failure, seen through the Spine's own method
    r = await ch.post_form(_form(ch))
    assert r.status_code == 503 and ch.pool.submitted == []


async def test_mailgun_retrying_after_a_503_is_accepted_not_refused_as_a_replay(make_channels, spine):
    """The token is marked used only once the message is accepted: the 503 left it unused, so
    Mailgun's redelivery (the same POST, the same token) runs the one turn."""
    ch = await make_channels(ScriptedPool())
    accept_inbound = spine.accept_inbound

    async def down(*_args, **_kwargs):
        raise ConnectionError("store unreachable")

    form = _form(ch)
    spine.accept_inbound = down  # the store's failure, seen through the Spine's own method
    assert (await ch.post_form(form)).status_code == 503
    spine.accept_inbound = accept_inbound
    r = await ch.post_form(form)
    assert r.status_code == 200, r.text
    assert r.json()["outcome"] == "answered" and [e.body for e in ch.pool.submitted] == ["is the gym open?"]
    assert (await ch.post_form(form)).json()["outcome"] == "duplicate"  # now marked: a third POST runs nothing


async def test_a_failed_turn_is_recorded_and_the_sender_gets_the_apology(make_channels, spine):
    ch = await make_channels(ScriptedPool(error=RuntimeError("model down")))
    form = _form(ch)
    r = await ch.post_form(form)
    assert r.status_code == 200 and r.json()["outcome"] == "failed"
    record = await spine.get_inbound("email:" + form["Message-Id"].strip("<>"))
    assert record.status == InboundStatus.FAILED and "model down" in record.failure
    [sent] = ch.mailgun.wait_for_sends(1)
    assert sent.form["text"].startswith("Sorry") and sent.form["to"] == "marcus@example.com"


async def test_unsubscribe_opts_the_address_out_and_subscribe_back_in(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    assert (await ch.email("marcus@example.com", "Unsubscribe")).json()["outcome"] == "opted_out"
    assert await spine.is_opted_out("marcus@example.com")
    assert (await ch.email("marcus@example.com", "is the gym open?")).json()["outcome"] == "blocked"
    assert ch.pool.submitted == [] and ch.mailgun.sent == []
    assert (await ch.email("marcus@example.com", "", subject="subscribe")).json()["outcome"] == "opted_in"
    [confirmation] = ch.mailgun.wait_for_sends(1)
    assert "subscribed again" in confirmation.form["text"]
    assert (await ch.email("marcus@example.com", "is the gym open?")).json()["outcome"] == "answered"


async def test_a_forged_unsubscribe_changes_nothing_and_the_owners_real_mail_gets_through(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    forged = await ch.email("marcus@example.com", "unsubscribe", sender="mallory@evil.example", spf="fail", dkim="none")
    assert forged.status_code == 200 and forged.json()["sender_verified"] is False
    assert not await spine.is_opted_out("marcus@example.com") and ch.pool.submitted == []
    [notice] = ch.mailgun.wait_for_sends(1)
    assert "could not confirm" in notice.form["text"] and "nothing was changed" in notice.form["text"]
    [event] = [e for e in await spine.events(EventKind.SENDER_UNVERIFIED) if e.reason == "unsubscribe_not_applied"]
    assert "evil.example" in event.detail["sender_check"]
    real = await ch.email("marcus@example.com", "my toilet is overflowing!")
    assert real.json()["outcome"] == "answered" and [e.body for e in ch.pool.submitted] == ["my toilet is overflowing!"]


async def test_a_forged_subscribe_never_resubscribes_an_opted_out_address(make_channels, spine):
    ch = await make_channels(ScriptedPool())
    assert (await ch.email("marcus@example.com", "unsubscribe")).json()["outcome"] == "opted_out"
    forged = await ch.email("marcus@example.com", "", subject="subscribe", sender="mallory@evil.example",
                            spf="fail", dkim="fail")
    assert forged.json()["outcome"] == "blocked"
    assert await spine.is_opted_out("marcus@example.com") and ch.mailgun.sent == []
