"""Who may use the admin API and pages: admin tokens issued to staff people, and the browser
sessions a sign-in opens. Only hashes of the secrets are stored (a token and a session id are 32
random bytes, so a plain SHA-256 is the right hash: nothing to brute-force), each with an expiry,
and both can be revoked. The operator's GATEWAY_ADMIN_TOKEN is not stored: it is configuration.
"""
from __future__ import annotations

import hashlib
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
    """A signed-in browser: the identity it acts as (a Person id, or OPERATOR)."""

    session_hash: str
    identity: str
    created_at: datetime
    expires_at: datetime

    def usable(self, now: datetime | None = None) -> bool:
        return (now or utcnow()) < self.expires_at


def issue_token(person_id: str, ttl: timedelta) -> tuple[str, AdminToken]:
    """A new token (shown once) and the record to store."""
    token, now = new_secret(TOKEN_PREFIX), utcnow()
    return token, AdminToken(token_hash=secret_hash(token), person_id=person_id, created_at=now,
                             expires_at=now + ttl)


def open_session(identity: str, ttl: timedelta) -> tuple[str, AdminSession]:
    session_id, now = new_secret(), utcnow()
    return session_id, AdminSession(session_hash=secret_hash(session_id), identity=identity, created_at=now,
                                    expires_at=now + ttl)
