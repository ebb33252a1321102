"""Issue 40 item 17: the admin API's OpenAPI schema (`app.openapi()`) declares the errors its routes
answer (400/401/403/404/409, and 503 from a store that does not answer), each with its body's
schema, and a real error answer matches what is declared."""
from __future__ import annotations

import jsonschema
import pytest

from gateway.app import create_app
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app, escalation, staff


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client, create_app(context).openapi()
    await client.aclose()
    await context.http.aclose()


def _declared(schema: dict, path: str, method: str) -> set[str]:
    return set(schema["paths"][path][method]["responses"])


def _body_schema(schema: dict, path: str, method: str, status: int) -> dict:
    ref = schema["paths"][path][method]["responses"][str(status)]["content"]["application/json"]["schema"]["$ref"]
    return {**schema["components"]["schemas"][ref.rsplit("/", 1)[1]], "components": schema["components"]}


@pytest.mark.parametrize("path, method, codes", [
    ("/admin/api/escalations/{escalation_id}/{action}", "post", {"400", "401", "403", "404", "409"}),
    ("/admin/api/escalations", "get", {"400", "401", "403", "404", "409"}),
    ("/admin/api/ask", "post", {"400", "401", "403"}),
    ("/admin/traces/{interaction_id}", "get", {"401", "403", "404"}),
])
async def test_each_admin_route_declares_the_errors_it_answers(app, path, method, codes):
    _, schema = app
    assert path in schema["paths"], sorted(p for p in schema["paths"] if p.startswith("/admin"))
    assert codes | {"200", "503"} <= _declared(schema, path, method)


async def test_every_admin_json_route_declares_401_403_and_503(app):
    _, schema = app
    admin = [(p, m) for p, ops in schema["paths"].items() if p.startswith("/admin") for m in ops]
    assert admin and all({"401", "403", "503"} <= _declared(schema, p, m) for p, m in admin), admin


async def test_a_409_and_a_404_answer_match_their_declared_schema(app, spine):
    client, schema = app
    path = "/admin/api/escalations/{escalation_id}/{action}"
    await escalation(spine, "e_done", "pf_yale")
    assert (await client.post("/admin/api/escalations/e_done/resolve", headers=AUTH)).status_code == 200
    again = await client.post("/admin/api/escalations/e_done/acknowledge", headers=AUTH)
    assert again.status_code == 409
    jsonschema.validate(again.json(), _body_schema(schema, path, "post", 409))
    missing = await client.post("/admin/api/escalations/e_none/resolve", headers=AUTH)
    assert missing.status_code == 404
    jsonschema.validate(missing.json(), _body_schema(schema, path, "post", 404))
    viewer = (await staff(spine, "p_sam"))["p_sam"]
    refused = await client.post("/admin/api/escalations/e_done/acknowledge", headers=viewer)
    assert refused.status_code == 403
    jsonschema.validate(refused.json(), _body_schema(schema, path, "post", 403))
