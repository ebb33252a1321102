"""The pure pieces of the Twilio adapter: form parsing, signatures, keywords, splitting, TwiML,
status callbacks. No network, no Ray."""
from __future__ import annotations

import pytest

from gateway.sms.inbound import InboundSms, MalformedWebhook, UnsupportedSender, decode_form, parse_inbound
from gateway.sms.keywords import Keyword, classify_keyword, help_text
from gateway.sms.splitting import MAX_BODY_CHARS, split_body
from gateway.sms.status import StatusCallback, apply_status, parse_status
from gateway.twilio.signature import public_url, sign, signature_valid
from gateway.twilio.twiml_sms import TwimlError, read_twiml, render_twiml
from spine.records import OutboxMessage, OutboxStatus

FORM = {"MessageSid": "SM" + "a" * 32, "AccountSid": "AC" + "b" * 32, "From": "+12065551001",
        "To": "+12065550100", "Body": "my toilet is overflowing!", "NumMedia": "0"}


def test_parse_inbound_reads_the_twilio_fields():
    sms = parse_inbound(FORM)
    assert sms == InboundSms(message_sid=FORM["MessageSid"], account_sid=FORM["AccountSid"],
                             from_address="+12065551001", to_address="+12065550100",
                             body="my toilet is overflowing!")


def test_parse_inbound_collects_media_in_order():
    form = {**FORM, "NumMedia": "2", "MediaUrl0": "https://api.twilio.com/m/0", "MediaContentType0": "image/jpeg",
            "MediaUrl1": "https://api.twilio.com/m/1", "MediaContentType1": "image/png"}
    sms = parse_inbound(form)
    assert sms.media_urls == ["https://api.twilio.com/m/0", "https://api.twilio.com/m/1"]
    assert sms.media_content_types == ["image/jpeg", "image/png"]


def test_parse_inbound_normalizes_numbers_to_e164():
    assert parse_inbound({**FORM, "From": "(206) 555-1001"}).from_address == "+12065551001"


@pytest.mark.parametrize("missing", ["MessageSid", "From", "To"])
def test_parse_inbound_names_the_missing_field(missing):
    form = {k: v for k, v in FORM.items() if k != missing}
    with pytest.raises(MalformedWebhook, match=missing):
        parse_inbound(form)


def test_parse_inbound_rejects_a_non_phone_sender_and_bad_num_media():
    with pytest.raises(UnsupportedSender, match="From not-a-number is not a phone number"):
        parse_inbound({**FORM, "From": "not-a-number"})
    with pytest.raises(UnsupportedSender) as refused:
        parse_inbound({**FORM, "From": "whatsapp:+14155551234"})
    assert "4155551234" not in str(refused.value) and refused.value.masked_from == "whatsapp:…1234"
    with pytest.raises(MalformedWebhook, match="NumMedia"):
        parse_inbound({**FORM, "NumMedia": "two"})


def test_decode_form_handles_encoding_and_rejects_garbage():
    form = decode_form(b"Body=caf%C3%A9+%26+more&From=%2B12065551001")
    assert form["Body"] == "café & more" and form["From"] == "+12065551001"
    with pytest.raises(MalformedWebhook, match="UTF-8"):
        decode_form(b"Body=\xff\xfe")


def test_signature_round_trip_and_tampering():
    url = public_url("https://clara.example.com/", "/sms/twilio")
    assert url == "https://clara.example.com/sms/twilio"
    signature = sign("secret", url, FORM)
    assert signature_valid("secret", url, FORM, signature)
    assert not signature_valid("secret", url, {**FORM, "Body": "changed"}, signature)
    assert not signature_valid("secret", "https://evil.example.com/sms/twilio", FORM, signature)
    assert not signature_valid("other-secret", url, FORM, signature)
    assert not signature_valid("secret", url, FORM, None)
    assert not signature_valid(None, url, FORM, signature)


def test_signature_over_a_multi_dict_counts_every_value_of_a_repeated_name():
    """Twilio signs each value of a repeated parameter; a form read from the wire is a
    multi-dict, and dropping or changing any one of its values breaks the signature."""
    url = "https://clara.example.com/sms/twilio"
    form = decode_form(b"Body=hi&From=%2B12065551001&Tag=a&Tag=b")
    signature = sign("secret", url, form)
    assert signature_valid("secret", url, form, signature)
    assert not signature_valid("secret", url, decode_form(b"Body=hi&From=%2B12065551001&Tag=a"), signature)
    assert not signature_valid("secret", url, decode_form(b"Body=hi&From=%2B12065551001&Tag=a&Tag=c"), signature)


def test_signature_covers_the_query_string():
    url = public_url("https://clara.example.com", "/sms/twilio", "tenant=a")
    assert url.endswith("/sms/twilio?tenant=a")
    assert not signature_valid("secret", url, FORM, sign("secret", "https://clara.example.com/sms/twilio", FORM))


@pytest.mark.parametrize("body,expected", [
    ("STOP", Keyword.OPT_OUT), (" stop ", Keyword.OPT_OUT), ("StopAll", Keyword.OPT_OUT),
    ("unsubscribe", Keyword.OPT_OUT), ("CANCEL", Keyword.OPT_OUT), ("end", Keyword.OPT_OUT),
    ("quit\n", Keyword.OPT_OUT), ("START", Keyword.OPT_IN), ("yes", Keyword.OPT_IN),
    ("Unstop", Keyword.OPT_IN), ("HELP", Keyword.HELP), ("info", Keyword.HELP),
    ("STOP please", None), ("please stop the leak", None), ("", None), ("yes I can come at 3", None),
])
def test_reserved_keywords_are_whole_message_matches(body, expected):
    assert classify_keyword(body) is expected


def test_help_text_names_the_property_and_the_keywords():
    text = help_text("JP Yale Station")
    assert "JP Yale Station" in text and "STOP" in text and "START" in text


def test_split_body_keeps_short_replies_whole():
    assert split_body("Help is on the way.") == ["Help is on the way."]
    assert split_body("   ") == []


def test_split_body_cuts_long_replies_at_word_boundaries():
    words = [f"word{n}" for n in range(900)]
    text = " ".join(words)
    parts = split_body(text)
    assert len(parts) >= 3
    assert all(0 < len(p) <= MAX_BODY_CHARS for p in parts)
    assert " ".join(parts).split() == words  # nothing lost, nothing cut mid-word


def test_split_body_prefers_sentence_ends_and_hard_cuts_unbroken_text():
    sentence = "This is one sentence of the reply. "
    parts = split_body(sentence * 100)
    assert all(p.endswith(".") for p in parts)
    blob = "x" * 4000
    assert split_body(blob) == ["x" * 1600, "x" * 1600, "x" * 800]


def test_twiml_renders_messages_and_the_empty_acknowledgement():
    assert read_twiml(render_twiml([])) == []
    assert "<Response />" in render_twiml([]) or "<Response/>" in render_twiml([])
    parts = ["Tom & Jerry <3", "second"]
    rendered = render_twiml(parts)
    assert "&amp;" in rendered and "&lt;3" in rendered
    assert read_twiml(rendered) == parts


def test_read_twiml_rejects_other_documents():
    with pytest.raises(TwimlError):
        read_twiml("<html/>")
    with pytest.raises(TwimlError):
        read_twiml("not xml")


def test_status_callback_parsing_and_transitions():
    with pytest.raises(MalformedWebhook, match="MessageStatus"):
        parse_status({"MessageSid": "SM1"})
    callback = parse_status({"MessageSid": "SM1", "MessageStatus": "undelivered", "ErrorCode": "30003"})
    pending = OutboxMessage(id="o1", to_address="+12065551001", from_address="+12065550100", body="hi")
    sent = apply_status(pending, StatusCallback(message_sid="SM1", message_status="delivered"))
    assert sent is not None and sent.status == OutboxStatus.SENT
    failed = apply_status(sent, callback)
    assert failed is not None and failed.status == OutboxStatus.FAILED and "30003" in failed.error
    assert apply_status(failed, StatusCallback(message_sid="SM1", message_status="sent")) is None  # out of order
    assert apply_status(failed, callback) is None  # a repeat changes nothing
    assert apply_status(sent, StatusCallback(message_sid="SM1", message_status="queued")) is None
