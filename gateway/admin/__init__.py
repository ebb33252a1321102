"""The /admin surface: bearer-token JSON API and server-rendered pages (sign-in, status cards,
tool catalog, traces, actors, Ask Clara). Each name below is imported on first use (PEP 562):
`gateway admin-token` checks a staff identity without loading Ask Clara's turn."""
import importlib
import typing

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


def __getattr__(name: str) -> object:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'gateway.admin' has no attribute {name!r}")


__all__ = [
    "AdminIdentity",
    "AskForbidden",
    "AskRefused",
    "PageUnauthorized",
    "require_admin",
]
