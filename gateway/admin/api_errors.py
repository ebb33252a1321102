"""The error answers of the admin JSON API, declared in its OpenAPI schema (issue 40 item 17): the
routes answer 400, 401, 403, 404 and 409 with FastAPI's `{"detail": "..."}` and a store that does
not answer with 503 `{"error": "..."}` (gateway.health), so a client generated from `app.openapi()`,
or a schema fuzzer, knows each. Declared per router where it is included (gateway/admin/routes.py),
so every route of it carries them."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel

WHY = {400: "The request names something that does not exist or is malformed",
       401: "No admin token or session, or one not valid",
       403: "Outside the signed-in identity's scope, read-only (a viewer), or a foreign Origin",
       404: "No such record within the signed-in identity's scope",
       409: "The record is already in the state asked for (resolved, say)",
       503: "The store or the runtime did not answer; retry"}


class ErrorDetail(BaseModel):
    """FastAPI's error body: what went wrong, in words."""

    detail: str


class StoreUnavailable(BaseModel):
    """gateway.health.store_unavailable's body."""

    error: str


def error_responses(*codes: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a router: each code with its model and why (503 always)."""
    declared: dict[int | str, dict[str, Any]] = {code: {"model": ErrorDetail, "description": WHY[code]}
                                                 for code in codes}
    declared[503] = {"model": StoreUnavailable, "description": WHY[503]}
    return declared
