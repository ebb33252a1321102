"""What counts as a verified email sender: SPF or DKIM passing for a domain aligned with the From
domain (same organizational domain), read from Mailgun's own checks or the topmost
Authentication-Results; anything else is an unknown address."""
from __future__ import annotations

import pytest

from gateway.email.authentication import aligned, judge_sender
from gateway.email.inbound import InboundEmail


def _mail(headers: list[tuple[str, str]], *, from_: str = "marcus@example.com", sender: str = "") -> InboundEmail:
    return InboundEmail(message_id="m@x", from_address=from_, envelope_sender=sender or from_,
                        recipients=["yale@clara.example"], headers=headers)


@pytest.mark.parametrize("domain,from_domain,expected", [
    ("example.com", "example.com", True),
    ("mail.example.com", "example.com", True),       # relaxed: same organizational domain
    ("example.co.uk", "other.co.uk", False),         # a public suffix is no organization
    ("example.com.evil.example", "example.com", False),
    ("", "example.com", False),
])
def test_alignment_is_by_organizational_domain(domain, from_domain, expected):
    assert aligned(domain, from_domain) is expected


def test_mailgun_spf_pass_for_an_aligned_envelope_sender_verifies():
    verdict = judge_sender(_mail([("X-Mailgun-Spf", "Pass")], sender="bounces@mail.example.com"))
    assert verdict.verified and "SPF pass for mail.example.com" in verdict.reason


def test_mailgun_spf_pass_for_someone_elses_domain_does_not():
    verdict = judge_sender(_mail([("X-Mailgun-Spf", "Pass"), ("X-Mailgun-Dkim-Check-Result", "Fail")],
                                 sender="mallory@evil.example"))
    assert not verdict.verified and "evil.example" in verdict.reason


def test_mailgun_dkim_pass_counts_only_when_every_signature_is_aligned():
    good = [("X-Mailgun-Dkim-Check-Result", "Pass"), ("DKIM-Signature", "v=1; a=rsa-sha256; d=example.com; s=s1")]
    assert judge_sender(_mail(good, sender="x@evil.example")).verified
    mixed = good + [("DKIM-Signature", "v=1; d=evil.example; s=s1")]  # which one passed? not said
    assert not judge_sender(_mail(mixed, sender="x@evil.example")).verified


def test_the_topmost_authentication_results_decides():
    headers = [("Authentication-Results", "mx.mailgun.org; spf=fail smtp.mailfrom=x@evil.example; dkim=none"),
               ("Authentication-Results", "forged.example; dkim=pass header.d=example.com")]
    verdict = judge_sender(_mail(headers))
    assert not verdict.verified and "spf=fail for evil.example" in verdict.reason
    honest = [("Authentication-Results", "mx.mailgun.org; dkim=pass header.d=example.com header.s=s1; spf=none")]
    assert judge_sender(_mail(honest)).verified


def test_mailgun_checks_outrank_an_authentication_results_header_the_sender_wrote():
    headers = [("X-Mailgun-Spf", "Fail"), ("X-Mailgun-Dkim-Check-Result", "Fail"),
               ("Authentication-Results", "anything; spf=pass smtp.mailfrom=marcus@example.com")]
    assert not judge_sender(_mail(headers)).verified


def test_no_results_at_all_is_an_unknown_address():
    verdict = judge_sender(_mail([("Subject", "hi")]))
    assert not verdict.verified and "no authentication results" in verdict.reason


def test_an_unreadable_authentication_results_verifies_nothing():
    assert not judge_sender(_mail([("Authentication-Results", ";;; ===")])).verified


def test_without_message_headers_the_header_fields_mailgun_posts_are_read():
    from gateway.email.inbound import parse_inbound

    form = {"from": "Marcus <marcus@example.com>", "recipient": "yale@clara.example", "sender": "marcus@example.com",
            "Message-Id": "<m1@example.com>", "X-Mailgun-Spf": "Pass", "body-plain": "hi"}
    assert judge_sender(parse_inbound(form)).verified
    assert not judge_sender(parse_inbound({**form, "X-Mailgun-Spf": "Fail"})).verified
