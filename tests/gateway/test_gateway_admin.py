"""GET /healthz and the bearer-token admin JSON API (traces, actors, events)."""
from __future__ import annotations

import pytest

from gateway.cli.sms import send_sms
from spine.records import EventKind
from tests.support.gateway_helpers import ACCOUNT_SID, ADMIN_TOKEN, AUTH_TOKEN, PUBLIC_URL, OfflinePool

AUTH = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


class ListingPool(OfflinePool):
    async def actors(self) -> list:
        return [{"key": "p_marcus", "person_id": "p_marcus", "host": "clara-host-0", "turns": 1}]


async def text(client, from_: str, body: str):
    return await send_sms(client, base_url=PUBLIC_URL, auth_token=AUTH_TOKEN, from_=from_, body=body,
                          account_sid=ACCOUNT_SID)


async def test_healthz_is_open(make_gateway, spine):
    client, _ = await make_gateway(OfflinePool(spine))
    response = await client.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


@pytest.mark.parametrize("path", ["/admin/traces", "/admin/traces/ix_1", "/admin/actors", "/admin/events"])
@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {ADMIN_TOKEN}"}])
async def test_admin_needs_the_bearer_token(make_gateway, spine, path, headers):
    client, _ = await make_gateway(OfflinePool(spine))
    response = await client.get(path, headers=headers)
    assert response.status_code == 401 and response.headers["www-authenticate"] == "Bearer"


async def test_admin_is_closed_without_a_configured_token(make_gateway, spine):
    client, _ = await make_gateway(OfflinePool(spine), admin_token=None)
    response = await client.get("/admin/traces", headers={"Authorization": "Bearer "})
    assert response.status_code == 401 and "GATEWAY_ADMIN_TOKEN" in response.text


async def test_traces_list_filter_and_fetch(make_gateway, spine):
    client, _ = await make_gateway(OfflinePool(spine))
    k1 = await text(client, "+12065551001", "my toilet is overflowing!")
    k4 = await text(client, "+13035552020", "check on WO-42")
    listed = (await client.get("/admin/traces", headers=AUTH)).json()["traces"]
    assert [t["interaction_id"] for t in listed] == [k4.interaction_id, k1.interaction_id]  # newest first
    mine = (await client.get("/admin/traces", params={"participant_id": "p_marcus"}, headers=AUTH)).json()
    assert [t["interaction_id"] for t in mine["traces"]] == [k1.interaction_id]
    assert (await client.get("/admin/traces", params={"channel": "voice"}, headers=AUTH)).json()["traces"] == []
    assert len((await client.get("/admin/traces", params={"limit": 1}, headers=AUTH)).json()["traces"]) == 1
    trace = (await client.get(f"/admin/traces/{k4.interaction_id}", headers=AUTH)).json()
    assert trace["participant_id"] == "p_carlos" and sorted(trace["routing"]["roles"]) == ["tenant", "vendor"]
    assert trace["wire_address_last4"] == "2020"
    missing = await client.get("/admin/traces/ix_nope", headers=AUTH)
    assert missing.status_code == 404 and "ix_nope" in missing.text
    bad = await client.get("/admin/traces", params={"channel": "fax"}, headers=AUTH)
    assert bad.status_code == 422


async def test_actors_and_events(make_gateway, spine):
    client, _ = await make_gateway(ListingPool(spine))
    assert (await client.get("/admin/actors", headers=AUTH)).json()["actors"][0]["person_id"] == "p_marcus"
    await text(client, "+12065551001", "STOP")
    events = (await client.get("/admin/events", params={"kind": EventKind.OPT_OUT}, headers=AUTH)).json()
    assert [(e["kind"], e["reason"], e["phone_last4"]) for e in events["events"]] == [(EventKind.OPT_OUT, "stop", "1001")]
    everything = (await client.get("/admin/events", headers=AUTH)).json()
    assert EventKind.OPT_OUT in everything["kinds"] and len(everything["events"]) >= 1
