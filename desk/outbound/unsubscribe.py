"""One-click unsubscribe for the emails the gateway starts (RFC 8058; Gmail's and Yahoo's rule for
bulk senders): every started email carries `List-Unsubscribe` (an https link and a mailto) and
`List-Unsubscribe-Post: List-Unsubscribe=One-Click`, and the link works without signing in.

The link carries a token: the address and an HMAC of it, so nobody can unsubscribe an address
they were not sent. The HMAC key is the namespace's own, made once in the store (`bind_once`), so
every replica and the scheduler sign alike with no setting to configure, and a token stays valid.
"""
from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from desk.outbound.consent import set_consent
from spine.context import Channel
from spine.repo import Spine

KEY_MARKER = "email-unsubscribe-key"
UNSUBSCRIBE_PATH = "/email/unsubscribe/"
_SIG_CHARS = 32


async def _key(spine: Spine) -> bytes:
    return (await spine.bind_once(KEY_MARKER, secrets.token_hex(32))).encode()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


async def unsubscribe_token(spine: Spine, address: str) -> str:
    signed = hmac.new(await _key(spine), address.lower().encode(), hashlib.sha256).hexdigest()[:_SIG_CHARS]
    return f"{_b64(address.lower().encode())}.{signed}"


async def address_of_token(spine: Spine, token: str) -> str | None:
    """The address a token was made for, or None when it is not one of ours (forged, cut short)."""
    encoded, _, signed = token.partition(".")
    try:
        address = base64.urlsafe_b64decode(encoded + "=" * (-len(encoded) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None
    expected = hmac.new(await _key(spine), address.encode(), hashlib.sha256).hexdigest()[:_SIG_CHARS]
    return address if address and hmac.compare_digest(expected, signed) else None


async def unsubscribe_headers(spine: Spine, public_url: str, to: str, from_: str) -> dict[str, str]:
    """The RFC 2369 / RFC 8058 headers of one started email to `to`, sent from `from_`."""
    link = public_url.rstrip("/") + UNSUBSCRIBE_PATH + await unsubscribe_token(spine, to)
    mailto = f", <mailto:{from_}?subject=unsubscribe>" if from_ else ""
    return {"List-Unsubscribe": f"<{link}>{mailto}", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"}


async def unsubscribe_by_token(spine: Spine, token: str) -> str | None:
    """Opt the token's address out of email (as a reply "unsubscribe" does); the address, or None."""
    address = await address_of_token(spine, token)
    if address is None:
        return None
    await set_consent(spine, Channel.EMAIL, address, opted_out=True, keyword="one-click", property_id=None,
                      reason="one_click", detail={"token": token[-8:]})
    return address
