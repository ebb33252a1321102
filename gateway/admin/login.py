"""Browser sign-in for the admin pages. An admin token (the operator's GATEWAY_ADMIN_TOKEN or a
person's `gateway admin-token`) is exchanged for a server-side session; the browser holds only
the session id, in an HttpOnly, SameSite=Strict cookie scoped to /admin, Secure when the gateway's
public URL (or the request) is https, expiring with the session. The session is bound to the token
it was opened with and ends when that token is rotated, revoked or expires (spine.admin_access).

Signing in and out change state, so both are POSTs whose `Origin` must be this gateway's own: a
cross-site link or form can neither sign a browser in as the link's identity nor sign it out.
`GET /admin/login` only shows the form (a token in its query string is ignored, never used) and
`GET /admin/logout` only a sign-out button. The form's POST validates the token first; a wrong one
gets the 401 page and no cookie. `next` names the admin page to land on (only /admin paths: the
sign-in is no open redirect)."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import RedirectResponse

import gateway.admin.html as html
from gateway.admin.auth import (
    DISABLED,
    FOREIGN_ORIGIN,
    SESSION_COOKIE,
    allowed_origin,
    check_token,
    unauthorized_page,
)
from gateway.context import GatewayContext, get_context
from spine.admin_access import open_session
from spine.identity import utcnow

router = APIRouter()

COOKIE_PATH = "/admin"
SESSION_TTL = timedelta(hours=8)
MAX_FORM_BYTES = 4096
LINK_TOKEN_REFUSED = ("a token in a link is not accepted: paste it into the form (a sign-in link could sign "
                      "you in as someone else)")


def landing(next_path: str | None) -> str:
    if next_path and (next_path == "/admin" or next_path.startswith("/admin/")) and "\\" not in next_path:
        return next_path
    return "/admin"


def _secure(ctx: GatewayContext, request: Request) -> bool:
    """Secure when the public URL is https, or the browser reached us over TLS (directly or
    through a TLS-terminating proxy)."""
    schemes = (ctx.settings.public_url.split(":", 1)[0].lower(), request.url.scheme,
               request.headers.get("x-forwarded-proto", "").lower())
    return "https" in schemes


async def _signed_in(ctx: GatewayContext, request: Request, token: str | None, next_path: str | None) -> Response:
    if not allowed_origin(ctx, request):
        return unauthorized_page(FOREIGN_ORIGIN, status=403)
    checked = await check_token(ctx, token)
    if checked is None:
        if not ctx.settings.admin_token and not token:
            return unauthorized_page(DISABLED)
        return unauthorized_page("wrong admin token" if token else "sign in with an admin token", next_path)
    session_id, session = open_session(checked.identity.id, SESSION_TTL, token=checked.staff_token,
                                       operator_token=None if checked.staff_token else token)
    await ctx.spine.put_admin_session(session)
    response = RedirectResponse(landing(next_path), status_code=303)
    max_age = max(0, round((session.expires_at - utcnow()).total_seconds()))
    response.set_cookie(SESSION_COOKIE, session_id, max_age=max_age, path=COOKIE_PATH,
                        httponly=True, samesite="strict", secure=_secure(ctx, request))
    return response


@router.get("/login", include_in_schema=False)
async def login_page(request: Request, next: str | None = None, ctx: GatewayContext = Depends(get_context)) -> Response:
    """The sign-in form; signing in is its POST."""
    if "token" in request.query_params:
        reason = LINK_TOKEN_REFUSED
    else:
        reason = "sign in with an admin token" if ctx.settings.admin_token else DISABLED
    return unauthorized_page(reason, landing(next) if next else None, status=200)


@router.post("/login", include_in_schema=False)
async def login_form(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    body = await request.body()
    fields = parse_qs(body[:MAX_FORM_BYTES].decode("utf-8", "replace")) if len(body) <= MAX_FORM_BYTES else {}
    token, next_path = fields.get("token"), fields.get("next")
    return await _signed_in(ctx, request, token[0] if token else None, next_path[0] if next_path else None)


def sign_out_form() -> html.Safe:
    return html.tag("form", html.tag("button", "Sign out", type="submit"), method="post", action="/admin/logout",
                    class_="inline")


@router.get("/logout", include_in_schema=False)
async def logout_page() -> Response:
    """A sign-out button: a link never ends a session."""
    return html.page("Sign out", html.tag("p", "End this browser's admin session."), sign_out_form(), nav=False)


@router.post("/logout", include_in_schema=False)
async def logout(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    if not allowed_origin(ctx, request):
        return unauthorized_page(FOREIGN_ORIGIN, status=403)
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id:
        await ctx.spine.end_admin_session(session_id)
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict",
                           secure=_secure(ctx, request))
    return response
