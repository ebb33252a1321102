"""Browser sign-in for the admin pages: the admin token becomes an HttpOnly, SameSite=Strict
cookie (`token`), scoped to /admin. `GET /admin/login?token=...` and the sign-in form's POST
both validate it first; a wrong token gets the 401 page and no cookie. `next` names the admin
page to land on (only /admin paths: the sign-in is no open redirect)."""
from __future__ import annotations

from urllib.parse import parse_qs

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import RedirectResponse

from gateway.admin.auth import COOKIE, DISABLED, token_ok, unauthorized_page
from gateway.context import GatewayContext, get_context

router = APIRouter()

COOKIE_PATH = "/admin"
COOKIE_MAX_AGE_S = 12 * 3600
MAX_FORM_BYTES = 4096


def landing(next_path: str | None) -> str:
    if next_path and (next_path == "/admin" or next_path.startswith("/admin/")) and "\\" not in next_path:
        return next_path
    return "/admin"


def _signed_in(ctx: GatewayContext, request: Request, token: str | None, next_path: str | None = None) -> Response:
    if not ctx.settings.admin_token:
        return unauthorized_page(DISABLED)
    if token is None:
        return unauthorized_page("sign in with the admin token")
    if not token_ok(ctx.settings.admin_token, token):
        return unauthorized_page("wrong admin token")
    response = RedirectResponse(landing(next_path), status_code=303)
    # Secure when the browser reached us over TLS (directly or through a TLS-terminating proxy)
    secure = "https" in (request.url.scheme, request.headers.get("x-forwarded-proto", "").lower())
    response.set_cookie(COOKIE, token, max_age=COOKIE_MAX_AGE_S, path=COOKIE_PATH, httponly=True,
                        samesite="strict", secure=secure)
    return response


@router.get("/login", include_in_schema=False)
async def login(request: Request, token: str | None = None, next: str | None = None,
                ctx: GatewayContext = Depends(get_context)) -> Response:
    return _signed_in(ctx, request, token, next)


@router.post("/login", include_in_schema=False)
async def login_form(request: Request, ctx: GatewayContext = Depends(get_context)) -> Response:
    body = await request.body()
    fields = parse_qs(body[:MAX_FORM_BYTES].decode("utf-8", "replace")) if len(body) <= MAX_FORM_BYTES else {}
    return _signed_in(ctx, request, (fields.get("token") or [None])[0], (fields.get("next") or [None])[0])


@router.get("/logout", include_in_schema=False)
async def logout() -> Response:
    response = RedirectResponse("/admin/login", status_code=303)
    response.delete_cookie(COOKIE, path=COOKIE_PATH, httponly=True, samesite="strict")
    return response
