"""The /admin surface: bearer-token JSON API and server-rendered pages (sign-in, status cards,
tool catalog, traces, actors, Ask Clara). Each name below is imported on first use (PEP 562):
`gateway admin-token` checks a staff identity without loading Ask Clara's turn."""
import typing

from spine.lazy_names import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from gateway.admin.ask import AskForbidden, AskRefused
    from gateway.admin.auth import AdminIdentity, PageUnauthorized, require_admin

_HOMES = {
    "AdminIdentity": "gateway.admin.auth",
    "AskForbidden": "gateway.admin.ask",
    "AskRefused": "gateway.admin.ask",
    "PageUnauthorized": "gateway.admin.auth",
    "require_admin": "gateway.admin.auth",
}

__getattr__ = _lazy_names(__name__, _HOMES)


__all__ = [
    "AdminIdentity",
    "AskForbidden",
    "AskRefused",
    "PageUnauthorized",
    "require_admin",
]
