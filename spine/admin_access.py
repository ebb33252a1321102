"""Who may use the admin API and pages: admin tokens issued to staff people, and the browser
sessions a sign-in opens. Only hashes of the secrets are stored (a token and a session id are 32
random bytes, so a plain SHA-256 is the right hash: nothing to brute-force), each with an expiry,
and both can be revoked. The operator's GATEWAY_ADMIN_TOKEN is not stored: it is configuration.

A session is bound to the credential it was opened with and lives no longer than it: a staff
token's session holds that token's hash (it ends when the token is revoked or expires, and never
outlives its expiry); an operator session holds an HMAC of the operator token keyed by the
session (it ends when GATEWAY_ADMIN_TOKEN is rotated or unset).
"""
from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import datetime, timedelta

from pydantic import BaseModel

from spine.identity import utcnow

OPERATOR = "operator"  # the identity GATEWAY_ADMIN_TOKEN signs in as (not a Person)
TOKEN_PREFIX = "clara_admin_"


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def new_secret(prefix: str = "") -> str:
    return prefix + secrets.token_urlsafe(32)


class AdminToken(BaseModel):
    """An admin credential of one staff Person, as stored: the hash, never the token."""

    token_hash: str
    person_id: str
    created_at: datetime
    expires_at: datetime
    revoked: bool = False

    def usable(self, now: datetime | None = None) -> bool:
        return not self.revoked and (now or utcnow()) < self.expires_at


class AdminSession(BaseModel):
    """A signed-in browser: the identity it acts as (a Person id, or OPERATOR), and the credential
    it was opened with (`credential`: the staff token's hash, or `operator_binding`); a session
    stored before sessions were bound has none and is refused."""

    session_hash: str
    identity: str
    created_at: datetime
    expires_at: datetime
    credential: str = ""

    def usable(self, now: datetime | None = None) -> bool:
        return (now or utcnow()) < self.expires_at


def issue_token(person_id: str, ttl: timedelta) -> tuple[str, AdminToken]:
    """A new token (shown once) and the record to store."""
    token, now = new_secret(TOKEN_PREFIX), utcnow()
    return token, AdminToken(token_hash=secret_hash(token), person_id=person_id, created_at=now,
                             expires_at=now + ttl)


def operator_binding(admin_token: str, session_hash: str) -> str:
    """What an operator session holds of the token it was opened with: an HMAC keyed by the token
    over the session's hash (never the token, and no digest shared between sessions)."""
    return "operator:" + hmac.new(admin_token.encode(), session_hash.encode(), hashlib.sha256).hexdigest()


def open_session(identity: str, ttl: timedelta, *, token: AdminToken | None = None,
                 operator_token: str | None = None) -> tuple[str, AdminSession]:
    """A new session id (for the cookie) and the record to store, bound to the staff `token` or
    the `operator_token` it was opened with, expiring after `ttl` or with the token, if sooner."""
    session_id, now = new_secret(), utcnow()
    session_hash = secret_hash(session_id)
    expires_at = min(now + ttl, token.expires_at) if token is not None else now + ttl
    if token is not None:
        credential = token.token_hash
    else:
        credential = operator_binding(operator_token, session_hash) if operator_token else ""
    return session_id, AdminSession(session_hash=session_hash, identity=identity, created_at=now,
                                    expires_at=expires_at, credential=credential)
