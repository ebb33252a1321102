"""A portfolio's --sync reaches a running gateway: a tenant who moved out, texting 5 s after the
sync (the staleness bound of a warm PersonActor), routes without the tenant role."""
from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest

from desk.portfolio.files import FileKind
from desk.portfolio.run import ImportOptions, import_portfolio
from gateway.cli.sms import send_sms
from tests.support.portfolio_helpers import write_portfolio
from tests.support.serve_helpers import SHARED_ACCOUNT_SID, SHARED_ADMIN_TOKEN, SHARED_AUTH_TOKEN
from tools.authority import STALE_AFTER_S

pytestmark = pytest.mark.ray

PROPERTY_NUMBER, TENANT = "+12065550780", "+12065550781"


def _portfolio(residents: list[dict[str, str]]) -> dict[FileKind, list[dict[str, str]]]:
    return {
        FileKind.ORGANIZATIONS: [{"external_id": "O1", "name": "Harbor Homes"}],
        FileKind.PROPERTIES: [{"external_id": "H1", "organization": "O1", "name": "Harbor Point",
                               "phone": PROPERTY_NUMBER, "timezone": "America/Los_Angeles"}],
        FileKind.UNITS: [{"external_id": "HU7", "property": "H1", "name": "7", "bedrooms": "1", "rent_usd": "1700"}],
        FileKind.PEOPLE: [{"external_id": "HP1", "first_name": "Iris", "last_name": "Vale", "phone": TENANT}],
        FileKind.RESIDENTS: residents,
    }


async def _turn(http: httpx.AsyncClient, body: str) -> dict:
    reply = await send_sms(http, base_url=str(http.base_url), auth_token=SHARED_AUTH_TOKEN, from_=TENANT, body=body,
                           to=PROPERTY_NUMBER, account_sid=SHARED_ACCOUNT_SID)
    assert reply.status_code == 200 and reply.interaction_id, reply
    response = await http.get(f"/admin/traces/{reply.interaction_id}",
                              headers={"Authorization": f"Bearer {SHARED_ADMIN_TOKEN}"})
    assert response.status_code == 200, response.text
    return response.json()


async def test_a_moved_out_tenant_texting_5s_after_sync_routes_without_the_tenant_role(serve_gateway, tmp_path):
    options = ImportOptions(source=f"harbor-{uuid.uuid4().hex[:6]}")
    resident = {"external_id": "HR1", "person": "HP1", "unit": "HU7", "kind": "primary", "move_in": "2025-05-01"}
    spine = serve_gateway.spine()
    try:
        first = await import_portfolio(spine, write_portfolio(tmp_path / "pf", _portfolio([resident])), options)
        assert not first.report.failed
        async with httpx.AsyncClient(base_url=serve_gateway.url, timeout=30.0) as http:
            before = await _turn(http, "is my rent paid up this month?")
            assert before["routing"]["roles"] == ["tenant"] and "create_work_order" in before["tools_offered"]
            tenant_id = before["participant_id"]
            synced = await import_portfolio(spine, write_portfolio(tmp_path / "pf", _portfolio([])),
                                            options.model_copy(update={"sync": True}))
            assert [str(r) for r in synced.report.files if r.file == "residents.csv"] == [
                "residents.csv: 0 created, 0 updated, 0 unchanged, 1 ended, 0 errors"]
            await asyncio.sleep(STALE_AFTER_S)
            after = await _turn(http, "is my rent paid up this month?")
    finally:
        await spine.store.close()
    assert after["participant_id"] == tenant_id  # the same Person: nothing was deleted
    assert "tenant" not in after["routing"]["roles"]
    assert "create_work_order" not in after["tools_offered"] and "get_lease_info" not in after["tools_offered"]
