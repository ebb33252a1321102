"""Is an email's From authenticated? Anyone can write any From, so an address counts as its
owner's only when the receiving side saw SPF or DKIM pass for a domain aligned with the From
domain (DMARC's relaxed alignment: the same organizational domain, by the Public Suffix List).

Only what the receiving side provably wrote is read: the headers above the first `Received`
(`InboundEmail.receiver_headers`). Every MTA prepends its own Received, so anything a sender
wrote, verdicts included, sits below the one Mailgun added when it took the message; a verdict
Mailgun did not write (an unsigned message gets no DKIM result) is missing, never looked for
lower down. From that block, in this order:
  1. Mailgun's own checks: `X-Mailgun-Spf` (SPF of the SMTP MAIL FROM, the form's `sender`) and
     `X-Mailgun-Dkim-Check-Result` (with the `d=` of the message's DKIM-Signature headers; every
     signature must be aligned, since the verdict does not say which one passed).
  2. Otherwise an `Authentication-Results` header (RFC 8601) whose authserv-id is the receiving
     domain (a recipient's domain, or a host under it), as RFC 8601 section 5 asks: one naming
     any other authority is ignored. `spf=pass` counts with the domain of `smtp.mailfrom`,
     `dkim=pass` with `header.d` (or `header.i`).
Nothing there: an unknown address.
"""
from __future__ import annotations

import re
from functools import lru_cache

import authres
from publicsuffixlist import PublicSuffixList
from pydantic import BaseModel

from gateway.email.inbound import InboundEmail


class SenderVerdict(BaseModel):
    verified: bool
    reason: str  # for the trace: what passed and for which domain, or what was missing


@lru_cache(maxsize=1)
def _psl() -> PublicSuffixList:
    return PublicSuffixList()  # the list ships inside the package: no network


def domain_of(address: str) -> str:
    return address.rsplit("@", 1)[-1].strip().strip(".").lower() if address else ""


def aligned(domain: str, from_domain: str) -> bool:
    """Relaxed alignment: both names share one organizational domain."""
    if not domain or not from_domain:
        return False
    org = _psl().privatesuffix(domain.lower())
    return org is not None and org == _psl().privatesuffix(from_domain.lower())


def _dkim_domains(mail: InboundEmail) -> list[str]:
    domains = []
    for header in mail.all_headers("DKIM-Signature"):
        match = re.search(r"(?:^|;)\s*d\s*=\s*([^;\s]+)", header)
        domains.append(match.group(1).lower() if match else "")
    return domains


def _first(block: list[tuple[str, str]], name: str) -> str | None:
    wanted = name.lower()
    return next((value for key, value in block if key.lower() == wanted), None)


def _mailgun_verdict(mail: InboundEmail, block: list[tuple[str, str]], from_domain: str) -> SenderVerdict | None:
    spf, dkim = _first(block, "X-Mailgun-Spf"), _first(block, "X-Mailgun-Dkim-Check-Result")
    if spf is None and dkim is None:
        return None
    spf, dkim = (spf or "none").strip().lower(), (dkim or "none").strip().lower()
    sender_domain = domain_of(mail.envelope_sender)
    if spf == "pass" and aligned(sender_domain, from_domain):
        return SenderVerdict(verified=True, reason=f"Mailgun SPF pass for {sender_domain}, aligned with {from_domain}")
    signers = _dkim_domains(mail)
    if dkim == "pass" and signers and all(aligned(d, from_domain) for d in signers):
        return SenderVerdict(verified=True, reason=f"Mailgun DKIM pass for {signers[0]}, aligned with {from_domain}")
    return SenderVerdict(verified=False, reason=(
        f"no SPF or DKIM pass aligned with {from_domain} (Mailgun: spf={spf} for {sender_domain or 'no sender'}, "
        f"dkim={dkim} signed by {', '.join(d or '?' for d in signers) or 'nobody'})"))


def _property(result, ptype: str, name: str) -> str:
    return next((p.value for p in result.properties if p.type == ptype and p.name == name), "") or ""


def _ours(authserv_id: str, receiving: set[str]) -> bool:
    authserv_id = authserv_id.strip().strip(".").lower()
    return any(authserv_id == domain or authserv_id.endswith("." + domain) for domain in receiving if domain)


def _receivers_results(mail: InboundEmail, block: list[tuple[str, str]]) -> authres.AuthenticationResultsHeader | None:
    """The first Authentication-Results in the block that the receiving domain wrote; an
    unreadable one is skipped (it verifies nothing)."""
    receiving = {domain_of(address) for address in mail.recipients}
    for key, raw in block:
        if key.lower() != "authentication-results":
            continue
        try:
            parsed = authres.AuthenticationResultsHeader.parse(f"Authentication-Results: {raw}")
        except Exception:  # noqa: BLE001 - authres raises its own syntax errors; an unreadable one verifies nothing
            continue
        if _ours(str(parsed.authserv_id or ""), receiving):
            return parsed
    return None


def _results_verdict(mail: InboundEmail, block: list[tuple[str, str]], from_domain: str) -> SenderVerdict | None:
    parsed = _receivers_results(mail, block)
    if parsed is None:
        return None
    seen = []
    for result in parsed.results:
        method, verdict = str(result.method).lower(), str(result.result).lower()
        if method == "spf":
            domain = domain_of(_property(result, "smtp", "mailfrom") or mail.envelope_sender)
        elif method == "dkim":
            domain = (_property(result, "header", "d") or domain_of(_property(result, "header", "i"))).lower()
        else:
            continue
        seen.append(f"{method}={verdict} for {domain or '?'}")
        if verdict == "pass" and aligned(domain, from_domain):
            return SenderVerdict(verified=True, reason=f"{method.upper()} pass for {domain}, aligned with {from_domain} "
                                                       f"(Authentication-Results from {parsed.authserv_id})")
    return SenderVerdict(verified=False, reason=f"no SPF or DKIM pass aligned with {from_domain} "
                                                f"({'; '.join(seen) or 'no spf or dkim result'})")


def judge_sender(mail: InboundEmail) -> SenderVerdict:
    from_domain, block = domain_of(mail.from_address), mail.receiver_headers()
    verdict = _mailgun_verdict(mail, block, from_domain) or _results_verdict(mail, block, from_domain)
    return verdict or SenderVerdict(verified=False, reason=f"no authentication results for {from_domain}: "
                                                           "treated as an unknown address")
