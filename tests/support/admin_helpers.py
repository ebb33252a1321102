"""Shared pieces of the admin tests (imported by module path; conftests collide across dirs)."""
from __future__ import annotations

from tests.support.gateway_helpers import ADMIN_TOKEN

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}

PAGES = ["/admin", "/admin/tools", "/admin/status", "/admin/traces/view", "/admin/traces/view/ix_1",
         "/admin/actors/view", "/admin/ask"]
JSON_ROUTES = ["/admin/api/tools", "/admin/api/status"]


async def person_auth(spine, person_id: str, days: int = 1) -> dict[str, str]:
    """Bearer headers of a fresh admin token for a staff person (what `gateway admin-token` issues)."""
    from datetime import timedelta

    from spine.admin_access import issue_token

    token, record = issue_token(person_id, timedelta(days=days))
    await spine.put_admin_token(record)
    return {"Authorization": f"Bearer {token}"}
