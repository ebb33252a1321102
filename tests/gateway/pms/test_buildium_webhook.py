"""POST /pms/buildium/webhook: signed, deduplicated, kept before its 2xx and worked after; a role
ended in Buildium reaches routing within the PersonActor's staleness bound."""
from __future__ import annotations

import asyncio
import time
from datetime import timedelta

from desk.pms import inbox
from desk.pms import writeback as w
from desk.pms.state import load_state
from desk.pms.status import current_state
from gateway.cli.sms import send_sms
from gateway.pms.buildium.client import BuildiumClient
from gateway.pms.buildium.sync import SYSTEM
from gateway.pms.buildium.worker import BuildiumWorker
from spine.identity import utcnow
from spine.work import WorkOrder
from tests.support.buildium_server import CLIENT_ID, CLIENT_SECRET
from tests.support.buildium_webhook_helpers import ALDER, ORG, buildium_settings, signed
from tests.support.gateway_helpers import ACCOUNT_SID, ADMIN_TOKEN, AUTH_TOKEN, PUBLIC_URL, OfflinePool
from tools.authority import STALE_AFTER_S

DANA = "+12535551001"
LEASE_UPDATED = {"EventName": "Lease.Updated", "EventDateTime": "2026-12-06T10:00:00.1234567Z", "AccountId": 1,
                 "LeaseId": 3001}


async def _roles(client, spine) -> list[str]:
    reply = await send_sms(client, base_url=PUBLIC_URL, auth_token=AUTH_TOKEN, from_=DANA, to=ALDER,
                           body="is my rent paid up this month?", account_sid=ACCOUNT_SID)
    trace = await spine.get_trace(reply.interaction_id)
    return list(trace.routing.roles)


async def _tenant_active(spine) -> bool:
    roles = await spine.roles_of("p_buildium_tenant-5001")
    return any(r.role_type == "tenant" and r.active for r in roles)


async def test_unsigned_forged_and_stale_deliveries_are_refused(make_gateway, synced, stub):
    client, _ = await make_gateway(OfflinePool(synced), **buildium_settings(stub))
    body, headers = signed(LEASE_UPDATED)
    unsigned = {"Content-Type": "application/json"}
    forged = signed(LEASE_UPDATED, secret="not-the-secret")[1]
    stale = signed(LEASE_UPDATED, at=time.time() - 3600)[1]
    for h in (unsigned, forged, stale):
        assert (await client.post("/pms/buildium/webhook", content=body, headers=h)).status_code == 401
    tampered = body.replace(b"3001", b"3002")
    assert (await client.post("/pms/buildium/webhook", content=tampered, headers=headers)).status_code == 401
    assert await inbox.due(synced, SYSTEM) == [] and stub.count("/v1/leases/3001") == 0


async def test_without_a_client_id_the_route_is_404(make_gateway, synced):
    client, context = await make_gateway(OfflinePool(synced))
    body, headers = signed(LEASE_UPDATED)
    assert (await client.post("/pms/buildium/webhook", content=body, headers=headers)).status_code == 404
    assert context.buildium is None


async def test_a_move_out_reaches_routing_within_the_staleness_bound(make_gateway, synced, stub):
    client, _ = await make_gateway(OfflinePool(synced), **buildium_settings(stub))
    assert await _roles(client, synced) == ["tenant"]
    stub.account.lease(3001)["Tenants"][0]["Status"] = "MovedOut"  # Dana moves out in Buildium
    body, headers = signed(LEASE_UPDATED)
    sent = time.monotonic()
    answer = await client.post("/pms/buildium/webhook", content=body, headers=headers)
    assert answer.status_code == 200 and answer.json()["outcome"] == "accepted"
    again = await client.post("/pms/buildium/webhook", content=body, headers=headers)  # Buildium's retry
    assert again.json()["outcome"] == "duplicate"
    while await _tenant_active(synced):
        assert time.monotonic() - sent < 2.0, "the webhook's change did not reach the store"
        await asyncio.sleep(0.05)
    await asyncio.sleep(max(0.0, STALE_AFTER_S - (time.monotonic() - sent)))
    assert "tenant" not in await _roles(client, synced)
    assert stub.count("/v1/leases/3001") == 1  # the duplicate fetched nothing
    assert await inbox.due(synced, SYSTEM) == []
    assert "1 webhooks in 7 days (0 waiting)" in (await current_state(synced, SYSTEM)).line()
    late = await client.post("/pms/buildium/webhook", content=body, headers=headers)  # after it was worked
    assert late.json()["outcome"] == "duplicate"


async def test_an_event_a_crash_left_behind_is_worked_by_the_tick(synced, stub, client):
    stub.account.lease(3001)["Tenants"][0]["Status"] = "MovedOut"
    event = inbox.InboxEvent(system=SYSTEM, event_id="e1", name="Lease.Updated", ids={"LeaseId": 3001},
                             received_at=utcnow())
    assert await inbox.accept(synced, event)  # kept, answered 2xx, and the process died
    worker = BuildiumWorker(synced, client, ORG, poll_s=300)
    await worker.tick()
    assert not await _tenant_active(synced)
    assert await inbox.due(synced, SYSTEM) == []


async def test_the_poll_runs_every_poll_s_after_the_first_sync(synced, stub):
    client = BuildiumClient(stub.url, CLIENT_ID, CLIENT_SECRET, rate_per_s=200)
    worker = BuildiumWorker(synced, client, ORG, poll_s=300)
    state = await load_state(synced.store, SYSTEM)
    assert not await worker.poll(state.changes_since + timedelta(seconds=299))
    stub.account.lease(3001)["Tenants"][0]["Status"] = "MovedOut"
    stub.account.touch("leases", 3001)
    assert await worker.poll(state.changes_since + timedelta(seconds=300))
    await client.aclose()
    assert not await _tenant_active(synced)


async def test_admin_status_has_the_buildium_line(make_gateway, synced, stub):
    wo = WorkOrder(id="wo_77", display_id="WO-77", property_id="prop_buildium_rental-101",
                   unit_id="u_buildium_unit-1001", brief="sink", created_by_person_id="p_buildium_tenant-5001")
    await synced.put_work_order(wo)
    await w.queue_write_back(synced, wo)
    client, _ = await make_gateway(OfflinePool(synced), **buildium_settings(stub))
    status = (await client.get("/admin/api/status", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})).json()
    [line] = status["pms"]
    assert line.startswith("buildium: last full sync 20") and "write-backs 1 pending / 0 failed" in line
    assert "0 webhooks in 7 days (0 waiting)" in line
    bare, _ = await make_gateway(OfflinePool(synced))
    assert (await bare.get("/admin/api/status", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})).json()["pms"] == []


async def test_an_event_that_fails_is_kept_and_worked_again(synced, stub, client):
    stub.account.lease(3001)["Tenants"][0]["Status"] = "MovedOut"
    event = inbox.InboxEvent(system=SYSTEM, event_id="e2", name="Lease.Updated", ids={"LeaseId": 3001},
                             received_at=utcnow())
    assert await inbox.accept(synced, event)
    worker = BuildiumWorker(synced, client, ORG, poll_s=300)
    stub.throttle = 1000  # Buildium refuses every request for a while
    assert not await worker.work_event(event)
    [kept] = await inbox.due(synced, SYSTEM)
    assert kept.attempts == 1 and "still refused" in kept.error and await _tenant_active(synced)
    stub.throttle = 0
    await worker.tick()
    assert await inbox.due(synced, SYSTEM) == [] and not await _tenant_active(synced)
