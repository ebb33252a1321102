"""The /admin surface: bearer-token JSON API and server-rendered pages (sign-in, status cards,
tool catalog, traces, actors, Ask Clara)."""
from gateway.admin.ask import AskForbidden, AskRefused
from gateway.admin.auth import AdminIdentity, PageUnauthorized, require_admin

__all__ = [
    "AdminIdentity",
    "AskForbidden",
    "AskRefused",
    "PageUnauthorized",
    "require_admin",
]
