"""Bearer-token check for /admin (GATEWAY_ADMIN_TOKEN). Without a configured token the admin
API is closed, never open."""
from __future__ import annotations

import hmac

from fastapi import Depends, HTTPException, Request

from gateway.context import GatewayContext, get_context


async def require_admin(request: Request, ctx: GatewayContext = Depends(get_context)) -> GatewayContext:
    expected = ctx.settings.admin_token
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if not expected:
        raise HTTPException(401, "the admin API is disabled: set GATEWAY_ADMIN_TOKEN",
                            headers={"WWW-Authenticate": "Bearer"})
    if scheme.lower() != "bearer" or not hmac.compare_digest(given.strip().encode(), expected.encode()):
        raise HTTPException(401, "missing or wrong bearer token", headers={"WWW-Authenticate": "Bearer"})
    return ctx
