"""Admin authentication: every admin request acts as a named identity.

Two credentials name one: `GATEWAY_ADMIN_TOKEN`, the operator's bootstrap identity (`operator`),
and the admin tokens `gateway admin-token PERSON_ID` issues to staff people (stored hashed,
expiring, revocable). Either goes as `Authorization: Bearer`, or is exchanged at /admin/login for
a server-side session whose id rides in an HttpOnly, SameSite=Strict cookie. State-changing admin
requests from a foreign `Origin` are refused, whatever the credential.

JSON routes answer 401/403 as JSON (`require_admin`); pages answer a sign-in page
(`require_admin_page`, on routers built with `AdminPageRoute`).
"""
from __future__ import annotations

import hmac
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from fastapi import Depends, HTTPException, Request, Response
from fastapi.routing import APIRoute

import gateway.admin.html as html
from desk.console.admin_scope import AdminScope, admin_scope, is_staff
from gateway.context import GatewayContext, get_context
from gateway.errors import GatewayError
from spine.admin_access import OPERATOR, AdminToken, operator_binding

SESSION_COOKIE = "session"
DISABLED = "the admin API is disabled: set GATEWAY_ADMIN_TOKEN or issue an admin token (gateway admin-token)"
REFUSED = "missing or wrong bearer token"
FOREIGN_ORIGIN = "cross-origin request refused: state-changing admin requests must come from this gateway's pages"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True, slots=True)
class AdminIdentity:
    """Who is acting: a staff Person's id, or OPERATOR."""

    id: str

    @property
    def is_operator(self) -> bool:
        return self.id == OPERATOR


def token_ok(expected: str | None, given: str | None) -> bool:
    if not expected or given is None:
        return False
    return hmac.compare_digest(given.encode(), expected.encode())


@dataclass(frozen=True, slots=True)
class SignInToken:
    """What a valid token proved: who it signs in as, and the credential a session opened with it
    is bound to (the staff token's record; None for the operator's GATEWAY_ADMIN_TOKEN)."""

    identity: AdminIdentity
    staff_token: AdminToken | None = None


async def check_token(ctx: GatewayContext, token: str | None) -> SignInToken | None:
    """The identity a bearer or sign-in token names, with its credential, or None."""
    if not token:
        return None
    if token_ok(ctx.settings.admin_token, token):
        return SignInToken(AdminIdentity(OPERATOR))
    stored = await ctx.spine.admin_token(token)
    if stored is None or not stored.usable() or not await is_staff(ctx.spine, stored.person_id):
        return None
    return SignInToken(AdminIdentity(stored.person_id), stored)


async def identity_for_token(ctx: GatewayContext, token: str | None) -> AdminIdentity | None:
    checked = await check_token(ctx, token)
    return checked.identity if checked is not None else None


async def identity_for_session(ctx: GatewayContext, session_id: str | None) -> AdminIdentity | None:
    """The identity of a live session whose credential still holds: an operator session ends when
    GATEWAY_ADMIN_TOKEN is rotated or unset, a staff one when its token is revoked or expires."""
    if not session_id:
        return None
    session = await ctx.spine.admin_session(session_id)
    if session is None or not session.usable() or not session.credential:
        return None
    if session.identity == OPERATOR:
        token = ctx.settings.admin_token
        bound = bool(token) and hmac.compare_digest(session.credential, operator_binding(token or "",
                                                                                         session.session_hash))
        return AdminIdentity(OPERATOR) if bound else None
    stored = await ctx.spine.admin_token_of_hash(session.credential)
    if stored is None or not stored.usable() or stored.person_id != session.identity:
        return None
    return AdminIdentity(session.identity) if await is_staff(ctx.spine, session.identity) else None


def allowed_origin(ctx: GatewayContext, request: Request) -> bool:
    """No Origin (a non-browser client) or this gateway's own: the public URL, or the host asked."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    public = urlsplit(ctx.settings.public_url)
    own = {f"{public.scheme}://{public.netloc}", f"{request.url.scheme}://{request.headers.get('host', '')}"}
    return origin.rstrip("/") in own


async def _authenticate(request: Request, ctx: GatewayContext) -> AdminIdentity | str:
    """The identity, or why not."""
    if request.method not in SAFE_METHODS and not allowed_origin(ctx, request):
        return FOREIGN_ORIGIN
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, given = header.partition(" ")
        identity = await identity_for_token(ctx, given.strip()) if scheme.lower() == "bearer" else None
    else:
        identity = await identity_for_session(ctx, request.cookies.get(SESSION_COOKIE))
    if identity is not None:
        request.state.admin_identity = identity
        return identity
    return REFUSED if ctx.settings.admin_token else DISABLED


async def require_admin(request: Request, ctx: GatewayContext = Depends(get_context)) -> GatewayContext:
    outcome = await _authenticate(request, ctx)
    if outcome == FOREIGN_ORIGIN:
        raise HTTPException(403, FOREIGN_ORIGIN)
    if isinstance(outcome, str):
        raise HTTPException(401, outcome, headers={"WWW-Authenticate": "Bearer"})
    return ctx


def signed_in(request: Request) -> AdminIdentity:
    """The identity require_admin / require_admin_page established for this request."""
    return request.state.admin_identity


async def signed_in_scope(ctx: GatewayContext, request: Request) -> AdminScope:
    """What the signed-in identity may see and do (desk.console.admin_scope), derived from the store
    once per request. Every admin route bounds what it reads and shows by it."""
    scope: AdminScope | None = getattr(request.state, "admin_scope", None)
    if scope is None:
        scope = request.state.admin_scope = await admin_scope(ctx.spine, signed_in(request).id)
    return scope


class PageUnauthorized(GatewayError):
    """An admin page or API call without a valid session or token; `status` 401 or 403."""

    def __init__(self, reason: str, status: int = 401) -> None:
        super().__init__(reason)
        self.reason, self.status = reason, status


async def require_admin_page(request: Request, ctx: GatewayContext = Depends(get_context)) -> GatewayContext:
    outcome = await _authenticate(request, ctx)
    if outcome == FOREIGN_ORIGIN:
        raise PageUnauthorized(FOREIGN_ORIGIN, 403)
    if outcome == REFUSED:
        raise PageUnauthorized("sign in with an admin token")
    if isinstance(outcome, str):
        raise PageUnauthorized(outcome)
    return ctx


def unauthorized_page(reason: str, next_path: str | None = None, status: int = 401) -> Response:
    """The sign-in page; its form posts the token to /admin/login and comes back to `next_path`."""
    form = html.tag("form", html.tag("label", "Admin token", html.tag("input", type="password", name="token", autofocus=True)),
                    html.tag("input", type="hidden", name="next", value=next_path) if next_path else "",
                    html.tag("button", "Sign in", type="submit"), method="post", action="/admin/login", class_="inline")
    response = html.page("Sign in", html.tag("p", reason), form, status_code=status, nav=False)
    response.headers["WWW-Authenticate"] = "Bearer"
    return response


class AdminPageRoute(APIRoute):
    """Routes whose failed page auth renders the sign-in page instead of JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            try:
                return await handler(request)
            except PageUnauthorized as exc:
                return unauthorized_page(exc.reason, request.url.path, exc.status)

        return guarded
