"""The read-only tool catalog viewer (ADR Phase 7, "Allowed roles"): every tool of
TOOL_ROLE_MATRIX with its catalog, scope, flags and the PersonRoleTypes allowed to call it,
projected on the server. `?role=` keeps the tools that role type may call. The "verified caller"
column is the matrix's `verified_caller`: on a phone call such a tool runs only once the call is
verified (STIR/SHAKEN A or the step-up code)."""
from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel

import gateway.admin.html as html
from gateway.admin.auth import AdminPageRoute, require_admin, require_admin_page
from gateway.context import GatewayContext
from spine.identity import PersonRoleType
from tools.matrix import TOOL_ROLE_MATRIX
from tools.registry import TOOLS

router = APIRouter(route_class=AdminPageRoute)


class ToolRow(BaseModel):
    name: str
    catalog: str
    scope: str
    read_only: bool
    voice_applicable: bool
    verified_caller: bool  # on voice, refused until the call is verified
    voice_only: bool
    allowed_roles: list[str] | Literal["*"]
    description: str = ""


def tool_rows(role: PersonRoleType | None = None) -> list[ToolRow]:
    """The matrix as rows, in matrix order; with `role`, only the tools that role type may call."""
    rows = []
    for name, policy in TOOL_ROLE_MATRIX.items():
        if role is not None and policy.roles != "*" and role not in policy.roles:
            continue
        allowed: list[str] | Literal["*"] = "*" if policy.roles == "*" else sorted(r.value for r in policy.roles)
        tool = TOOLS.get(name)
        rows.append(ToolRow(name=name, catalog=policy.catalog, scope=policy.scope.value, read_only=policy.read_only,
                            voice_applicable=policy.voice_applicable, verified_caller=policy.verified_caller,
                            voice_only=policy.voice_only, allowed_roles=allowed,
                            description=tool.spec.description if tool else ""))
    return rows


def _role(value: str | None) -> PersonRoleType | None:
    if not value:
        return None
    try:
        return PersonRoleType(value)
    except ValueError:
        known = ", ".join(r.value for r in PersonRoleType)
        raise HTTPException(400, f"unknown role {value!r}; known: {known}") from None


@router.get("/api/tools")
async def tools_json(role: str | None = None, _: GatewayContext = Depends(require_admin)) -> dict[str, Any]:
    chosen = _role(role)
    return {"role": chosen, "tools": [r.model_dump() for r in tool_rows(chosen)]}


def _flag(value: bool) -> html.Safe:
    return html.pill("yes", "good") if value else html.pill("no")


def _filter_form(chosen: PersonRoleType | None) -> html.Safe:
    options = [html.tag("option", "all roles", value="")] + [
        html.tag("option", r.value, value=r.value, selected=r == chosen) for r in PersonRoleType]
    return html.tag("form", html.tag("label", "Role type", html.tag("select", *options, name="role")),
                    html.tag("button", "Filter", type="submit"), method="get", action="/admin/tools", class_="inline")


@router.get("/tools", include_in_schema=False)
async def tools_page(request: Request, _: GatewayContext = Depends(require_admin_page)) -> Response:
    try:
        chosen = _role(request.query_params.get("role"))
    except HTTPException as exc:
        return html.page("Tool catalog", html.tag("div", exc.detail, class_="alarm"), _filter_form(None), status_code=400)
    rows = tool_rows(chosen)
    body = [
        (html.tag("b", r.name), r.catalog, r.scope, _flag(r.read_only),
         html.pill("only", "good") if r.voice_only else _flag(r.voice_applicable),
         html.pill("required", "bad") if r.verified_caller else html.pill("no"),
         html.pill("* (every caller)", "good") if r.allowed_roles == "*" else html.join(html.pill(x) for x in r.allowed_roles),
         html.tag("span", r.description, class_="muted"))
        for r in rows
    ]
    summary = f"{len(rows)} of {len(TOOL_ROLE_MATRIX)} tools" + (f" callable by role type {chosen.value}" if chosen else "")
    return html.page(
        "Tool catalog",
        html.tag("p", summary, " · projected from TOOL_ROLE_MATRIX; the dispatch gate still checks scope on every call.",
                 class_="muted"),
        _filter_form(chosen),
        html.table(["tool", "catalog", "scope", "read-only", "voice", "verified caller (voice)", "Allowed roles",
                    "description"], body),
        html.tag("p", html.link("/admin/api/tools" + (f"?{html.query(role=chosen.value)}" if chosen else ""), "as JSON")),
    )
