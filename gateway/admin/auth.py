"""Admin authentication: the GATEWAY_ADMIN_TOKEN as `Authorization: Bearer`, or the HttpOnly
`token` cookie that `/admin/login` sets for browsers. Without a configured token the admin API
and pages are closed, never open.

JSON routes answer 401 as JSON (`require_admin`); pages answer a 401 page (`require_admin_page`,
on routers built with `AdminPageRoute`).
"""
from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable

from fastapi import Depends, HTTPException, Request, Response
from fastapi.routing import APIRoute

from gateway.admin import html as h
from gateway.context import GatewayContext, get_context

COOKIE = "token"
DISABLED = "the admin API is disabled: set GATEWAY_ADMIN_TOKEN"
REFUSED = "missing or wrong bearer token"


def token_ok(expected: str | None, given: str | None) -> bool:
    return bool(expected) and given is not None and hmac.compare_digest(given.encode(), expected.encode())


def presented_token(request: Request) -> str | None:
    """The bearer token if an Authorization header is sent, else the login cookie."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, given = header.partition(" ")
        return given.strip() if scheme.lower() == "bearer" else None
    return request.cookies.get(COOKIE)


async def require_admin(request: Request, ctx: GatewayContext = Depends(get_context)) -> GatewayContext:
    expected = ctx.settings.admin_token
    if not expected:
        raise HTTPException(401, DISABLED, headers={"WWW-Authenticate": "Bearer"})
    if not token_ok(expected, presented_token(request)):
        raise HTTPException(401, REFUSED, headers={"WWW-Authenticate": "Bearer"})
    return ctx


class PageUnauthorized(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


async def require_admin_page(request: Request, ctx: GatewayContext = Depends(get_context)) -> GatewayContext:
    expected = ctx.settings.admin_token
    if not expected:
        raise PageUnauthorized(DISABLED)
    if not token_ok(expected, presented_token(request)):
        raise PageUnauthorized("sign in with the admin token")
    return ctx


def unauthorized_page(reason: str, next_path: str | None = None) -> Response:
    """The sign-in page (401); its form posts the token to /admin/login and comes back to `next_path`."""
    form = h.tag("form", h.tag("label", "Admin token", h.tag("input", type="password", name="token", autofocus=True)),
                 h.tag("input", type="hidden", name="next", value=next_path) if next_path else "",
                 h.tag("button", "Sign in", type="submit"), method="post", action="/admin/login", class_="inline")
    response = h.page("Sign in", h.tag("p", reason), form, status_code=401, nav=False)
    response.headers["WWW-Authenticate"] = "Bearer"
    return response


class AdminPageRoute(APIRoute):
    """Routes whose failed page auth renders the sign-in page (401) instead of JSON."""

    def get_route_handler(self) -> Callable[[Request], Awaitable[Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except PageUnauthorized as exc:
                return unauthorized_page(exc.reason, request.url.path)

        return guarded
