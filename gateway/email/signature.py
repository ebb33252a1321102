"""Mailgun's webhook signature: the hex HMAC-SHA256 of `timestamp + token` (no separator) keyed
with the account's HTTP webhook signing key (MAILGUN_SIGNING_KEY). The signature does not
cover the body, so a captured (timestamp, token, signature) could carry any body: the gateway
refuses stale timestamps and any token it has seen with another Message-Id."""
from __future__ import annotations

import hashlib
import hmac
import time

# How far a timestamp may be from our clock. Mailgun signs each POST (retries included) when it
# sends it; a token cannot carry a second message whatever its age, so the window only bounds clocks.
MAX_SKEW_S = 15 * 60


def sign(signing_key: str, timestamp: str, token: str) -> str:
    return hmac.new(signing_key.encode(), f"{timestamp}{token}".encode(), hashlib.sha256).hexdigest()


def signature_valid(signing_key: str, timestamp: str, token: str, signature: str) -> bool:
    return hmac.compare_digest(sign(signing_key, timestamp, token), signature.strip().lower())


def stale(timestamp: str, now: float | None = None) -> bool:
    """True for a timestamp that is not a number or is more than MAX_SKEW_S from now."""
    try:
        at = int(timestamp)
    except ValueError:
        return True
    return abs((time.time() if now is None else now) - at) > MAX_SKEW_S
