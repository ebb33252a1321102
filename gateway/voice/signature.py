"""`ElevenLabs-Signature` on post-call webhooks: `t=<unix seconds>,v0=<hex HMAC-SHA256 of
"<t>.<raw body>" keyed by the webhook secret>`. Stale or future timestamps are refused, so a
captured request cannot be replayed later; replays inside the window are refused by the route."""
from __future__ import annotations

import hashlib
import hmac
import re

from gateway.errors import GatewayError

SIGNATURE_HEADER = "ElevenLabs-Signature"
TOLERANCE_S = 30 * 60
MAX_HEADER_CHARS = 512
# ASCII only: str.isdigit() is true for '²', which int() then refuses.
_TIMESTAMP = re.compile(r"[0-9]{1,12}")
_DIGEST = re.compile(r"[0-9a-f]{64}")


class SignatureRejected(GatewayError):
    """Missing, malformed, mismatched or stale signature (the message says which)."""


def _digest(secret: str, timestamp: int | str, body: bytes) -> str:
    return hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()


def sign(secret: str, body: bytes, timestamp: int) -> str:
    """The header ElevenLabs would send (tests and the benchmark sign with it)."""
    return f"t={timestamp},v0={_digest(secret, timestamp, body)}"


def verify(secret: str | None, header: str | None, body: bytes, *, now: float,
           tolerance_s: float = TOLERANCE_S) -> str:
    """The verified v0 digest (a replay key), or SignatureRejected."""
    if not secret:
        raise SignatureRejected("ELEVENLABS_WEBHOOK_SECRET is not set, so no signature can be verified")
    if not header:
        raise SignatureRejected(f"{SIGNATURE_HEADER} header is missing")
    parts = dict(p.strip().split("=", 1) for p in header[:MAX_HEADER_CHARS + 1].split(",") if "=" in p)
    timestamp, given = parts.get("t", ""), parts.get("v0", "")
    if len(header) > MAX_HEADER_CHARS or not _TIMESTAMP.fullmatch(timestamp) or not _DIGEST.fullmatch(given):
        raise SignatureRejected(f"{SIGNATURE_HEADER} must look like t=<seconds>,v0=<64 hex digits>")
    if abs(now - int(timestamp)) > tolerance_s:
        raise SignatureRejected(f"{SIGNATURE_HEADER} timestamp is {int(now) - int(timestamp)} s off; "
                                f"the window is {int(tolerance_s)} s")
    if not hmac.compare_digest(_digest(secret, timestamp, body), given):
        raise SignatureRejected(f"{SIGNATURE_HEADER} does not match the body")
    return given
