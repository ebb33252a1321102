"""What a sender's words can do to Clara's reply: the subject goes back only to a verified sender
and only cleaned (no CR/LF or other control characters, bounded); an unverified From gets a fixed
subject; thread ids that could not be headers are dropped."""
from __future__ import annotations

from gateway.email.inbound import MAX_SUBJECT_CHARS, clean_subject, parse_inbound
from gateway.email.route_form import route_form
from tests.support.gateway_helpers import ScriptedPool

INJECTED = "Toilet\r\nBcc: everyone@evil.example\r\n\r\nfree money\x00\u202e"


def test_a_subject_keeps_its_words_and_loses_every_control_character():
    assert clean_subject(INJECTED) == "Toilet Bcc: everyone@evil.example free money"
    assert clean_subject("  Re:\tleak \u200b upstairs ") == "Re: leak upstairs"
    assert len(clean_subject("x" * 5000)) == MAX_SUBJECT_CHARS and clean_subject(None) == ""


def test_parsed_mail_carries_the_cleaned_subject_and_only_header_safe_references():
    form = route_form(signing_key="k", from_="marcus@example.com", to="yale@clara.example", text="hi",
                      subject=INJECTED, references=["<a@x>"])
    form["References"] = "<a@x> <b\x01@x> junk <c@x>"
    mail = parse_inbound(form)
    assert "\r" not in mail.subject and "\n" not in mail.subject and "\x00" not in mail.subject
    assert mail.references == ["<a@x>", "<c@x>"]


async def test_a_verified_senders_subject_comes_back_cleaned(make_channels):
    ch = await make_channels(ScriptedPool())
    r = await ch.email("marcus@example.com", "my toilet is overflowing!", subject=INJECTED)
    assert r.status_code == 200 and r.json()["sender_verified"] is True
    [sent] = ch.mailgun.wait_for_sends(1)
    assert sent.form["subject"] == "Re: Toilet Bcc: everyone@evil.example free money"


async def test_an_unverified_from_gets_a_fixed_subject_with_none_of_the_senders_words(make_channels):
    ch = await make_channels(ScriptedPool())
    r = await ch.email("marcus@example.com", "hello", subject="Rent overdue: pay today at evil.example",
                       sender="mallory@evil.example", spf="fail", dkim="none")
    assert r.status_code == 200 and r.json()["sender_verified"] is False
    [sent] = ch.mailgun.wait_for_sends(1)
    assert sent.form["to"] == "marcus@example.com" and sent.form["from"] == "yale@clara.example"
    assert sent.form["subject"].startswith("Re: your message to ") and "evil" not in sent.form["subject"]
