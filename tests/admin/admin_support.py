"""Shared pieces of the admin tests (imported by module path; conftests collide across dirs)."""
from __future__ import annotations

from tests.gateway.sms_support import ADMIN_TOKEN

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}

PAGES = ["/admin", "/admin/tools", "/admin/status", "/admin/traces/view", "/admin/traces/view/ix_1",
         "/admin/actors/view", "/admin/ask"]
JSON_ROUTES = ["/admin/api/tools", "/admin/api/status"]
