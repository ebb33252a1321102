"""Browser sign-in for the admin pages. An admin token (the operator's GATEWAY_ADMIN_TOKEN or a
person's `gateway admin-token`) is exchanged for a server-side session; the browser holds only
the session id, in an HttpOnly, SameSite=Strict cookie scoped to /admin, Secure when the gateway's
public URL (or the request) is https, expiring with the session. Logout ends the session on the
server, so a copied cookie dies with it. `GET /admin/login?token=...` and the sign-in form's POST
both validate the token first; a wrong one gets the 401 page and no cookie. `next` names the admin
page to land on (only /admin paths: the sign-in is no open redirect)."""
from __future__ import annotations

from datetime import timedelta
from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import RedirectResponse

from gateway.admin.auth import (
    DISABLED,
    FOREIGN_ORIGIN,
    SESSION_COOKIE,
    AdminIdentity,
    allowed_origin,
    identity_for_token,
    unauthorized_page,
)
from gateway.context import GatewayContext, get_context
from spine.admin_access import open_session

router = APIRouter()

COOKIE_PATH = "/admin"
SESSION_TTL = timedelta(hours=8)
MAX_FORM_BYTES = 4096


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
    identity: AdminIdentity | None = await identity_for_token(ctx, token)
    if identity is None:
        if not ctx.settings.admin_token and not token:
            return unauthorized_page(DISABLED)
        return unauthorized_page("wrong admin token" if token else "sign in with an admin token")
    session_id, session = open_session(identity.id, SESSION_TTL)
    await ctx.spine.put_admin_session(session)
    response = RedirectResponse(landing(next_path), status_code=303)
    response.set_cookie(SESSION_COOKIE, session_id, max_age=int(SESSION_TTL.total_seconds()), path=COOKIE_PATH,
                        httponly=True, samesite="strict", secure=_secure(ctx, request))
    return response


@router.get("/login", include_in_schema=False)
async def login(request: Request, token: str | None = None, next: str | None = None,
                ctx: GatewayContext = Depends(get_context)) -> Response:
    return await _signed_in(ctx, request, token, next)


@router.post("/login", include_in_schema=False)
async def login_form(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    body = await request.body()
    fields = parse_qs(body[:MAX_FORM_BYTES].decode("utf-8", "replace")) if len(body) <= MAX_FORM_BYTES else {}
    token, next_path = fields.get("token"), fields.get("next")
    return await _signed_in(ctx, request, token[0] if token else None, next_path[0] if next_path else None)


async def _logout(request: Request, ctx: GatewayContext) -> Response:
    session_id = request.cookies.get(SESSION_COOKIE)
    if session_id:
        await ctx.spine.end_admin_session(session_id)
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict",
                           secure=_secure(ctx, request))
    return response


@router.get("/logout", include_in_schema=False)
async def logout(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    return await _logout(request, ctx)


@router.post("/logout", include_in_schema=False)
async def logout_form(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    if not allowed_origin(ctx, request):
        return unauthorized_page(FOREIGN_ORIGIN, status=403)
    return await _logout(request, ctx)
