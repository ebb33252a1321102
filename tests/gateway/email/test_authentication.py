"""What counts as a verified email sender: SPF or DKIM passing for a domain aligned with the From
domain (same organizational domain), read only from what the receiving side wrote above the
first Received (Mailgun's own checks, or an Authentication-Results of the receiving domain);
anything else, wherever else it is written, is an unknown address."""
from __future__ import annotations

import pytest

from gateway.email.authentication import aligned, judge_sender
from gateway.email.inbound import InboundEmail, parse_inbound

MAILGUN_RECEIVED = ("Received", "from mail.evil.example by mxa.mailgun.org with ESMTP id 1; Tue, 1 Dec 2026 09:00:00 +0000")
SENDERS_RECEIVED = ("Received", "from laptop by mail.evil.example with ESMTP; Tue, 1 Dec 2026 08:59:59 +0000")


def _mail(mailgun_wrote: list[tuple[str, str]], sender_wrote: list[tuple[str, str]] = (), *,
          from_: str = "marcus@example.com", sender: str = "") -> InboundEmail:
    """Headers as Mailgun posts them: its own block, its Received, then what came with the message."""
    headers = [*mailgun_wrote, MAILGUN_RECEIVED, SENDERS_RECEIVED, *sender_wrote, ("From", from_)]
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
    signed = [("DKIM-Signature", "v=1; a=rsa-sha256; d=example.com; s=s1")]
    assert judge_sender(_mail([("X-Mailgun-Dkim-Check-Result", "Pass")], signed, sender="x@evil.example")).verified
    mixed = signed + [("DKIM-Signature", "v=1; d=evil.example; s=s1")]  # which one passed? not said
    assert not judge_sender(_mail([("X-Mailgun-Dkim-Check-Result", "Pass")], mixed, sender="x@evil.example")).verified


@pytest.mark.parametrize("mailgun_wrote", [
    [],                                      # unsigned, and no SPF record: Mailgun wrote no verdict at all
    [("X-Mailgun-Spf", "Neutral")],          # Mailgun checked SPF only: the DKIM verdict below is the sender's
])
def test_a_verdict_the_sender_wrote_below_mailguns_received_is_never_read(mailgun_wrote):
    forged = [("X-Mailgun-Dkim-Check-Result", "Pass"), ("X-Mailgun-Spf", "Pass"),
              ("DKIM-Signature", "v=1; a=rsa-sha256; d=example.com; s=s1; bh=x; b=y")]
    verdict = judge_sender(_mail(mailgun_wrote, forged, sender="mallory@evil.example"))
    assert not verdict.verified, verdict.reason


def test_an_authentication_results_the_sender_wrote_verifies_nothing():
    for authserv_id in ("clara.example", "mx.mailgun.org", "example.com"):
        forged = [("Authentication-Results", f"{authserv_id}; spf=pass smtp.mailfrom=marcus@example.com; "
                                             "dkim=pass header.d=example.com")]
        verdict = judge_sender(_mail([], forged, sender="mallory@evil.example"))
        assert not verdict.verified and "no authentication results" in verdict.reason, authserv_id


def test_the_receiving_domains_authentication_results_decides():
    honest = [("Authentication-Results", "mx.clara.example; dkim=pass header.d=example.com header.s=s1; spf=none")]
    verdict = judge_sender(_mail(honest))
    assert verdict.verified and "from mx.clara.example" in verdict.reason
    failed = [("Authentication-Results", "clara.example; spf=fail smtp.mailfrom=x@evil.example; dkim=none")]
    verdict = judge_sender(_mail(failed))
    assert not verdict.verified and "spf=fail for evil.example" in verdict.reason


def test_an_authentication_results_of_another_authority_is_ignored_even_on_top():
    """RFC 8601 section 5: only the receiving domain's own authserv-id is trusted."""
    other = [("Authentication-Results", "relay.example.net; dkim=pass header.d=example.com")]
    assert not judge_sender(_mail(other)).verified


def test_mailgun_checks_outrank_an_authentication_results_header():
    headers = [("X-Mailgun-Spf", "Fail"), ("X-Mailgun-Dkim-Check-Result", "Fail"),
               ("Authentication-Results", "clara.example; spf=pass smtp.mailfrom=marcus@example.com")]
    assert not judge_sender(_mail(headers)).verified


def test_no_results_at_all_is_an_unknown_address():
    verdict = judge_sender(_mail([], [("Subject", "hi")]))
    assert not verdict.verified and "no authentication results" in verdict.reason


def test_without_any_received_header_nothing_is_the_receivers():
    bare = InboundEmail(message_id="m@x", from_address="marcus@example.com", envelope_sender="marcus@example.com",
                        recipients=["yale@clara.example"], headers=[("X-Mailgun-Spf", "Pass")])
    assert not judge_sender(bare).verified


def test_an_unreadable_authentication_results_verifies_nothing():
    assert not judge_sender(_mail([("Authentication-Results", ";;; ===")])).verified


def test_without_message_headers_no_verdict_field_is_trusted():
    """Mailgun posts each header as its own field too, but without their order a sender's own
    `X-Mailgun-Spf` cannot be told from Mailgun's: the thread ids are read, no verdict."""
    form = {"from": "Marcus <marcus@example.com>", "recipient": "yale@clara.example", "sender": "marcus@example.com",
            "Message-Id": "<m1@example.com>", "X-Mailgun-Spf": "Pass", "References": "<m0@example.com>",
            "body-plain": "hi"}
    mail = parse_inbound(form)
    assert mail.message_id == "m1@example.com" and mail.references == ["<m0@example.com>"]
    assert not judge_sender(mail).verified
