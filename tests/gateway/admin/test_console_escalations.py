"""The escalation queue: open first then newest, scoped to the signed-in staff member, who as a
name and last 4 digits; acknowledge and resolve record the signed-in person and an event."""
from __future__ import annotations

import pytest

from spine.records import EventKind
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app, escalation, staff


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client
    await client.aclose()
    await context.http.aclose()


@pytest.fixture
async def queue(spine):
    await escalation(spine, "e_old_open", "pf_yale", minutes_ago=30)
    await escalation(spine, "e_new_open", "pf_yale", minutes_ago=1, urgency="emergency")
    await escalation(spine, "e_beacon", "pf_beacon", minutes_ago=10, person_id=None)
    await escalation(spine, "e_capitol", "pf_capitol", minutes_ago=5, person_id="p_carlos", org_id="org_capitol")
    resolved = await escalation(spine, "e_resolved", "pf_yale", minutes_ago=0)
    from spine.escalation import EscalationStatus
    await spine.change_escalation(resolved.id, lambda e: e.model_copy(update={"status": EscalationStatus.RESOLVED}))
    return await staff(spine, "p_priya", "p_nora", "p_sam")


async def ids(app, headers, **params) -> list[str]:
    answer = await app.get("/admin/api/escalations", params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return [e["id"] for e in answer.json()["escalations"]]


async def test_open_first_then_newest_within_the_signed_in_scope(app, queue):
    # Priya's pm role is org-wide (org_propflow: Yale and Beacon), never Capitol's.
    assert await ids(app, queue["p_priya"]) == ["e_new_open", "e_beacon", "e_old_open", "e_resolved"]
    assert await ids(app, queue["p_nora"]) == ["e_beacon"]  # pm of pf_beacon only
    assert await ids(app, AUTH) == ["e_new_open", "e_capitol", "e_beacon", "e_old_open", "e_resolved"]
    assert await ids(app, queue["p_priya"], status="resolved") == ["e_resolved"]
    assert await ids(app, queue["p_priya"], property_id="pf_yale", status="open") == ["e_new_open", "e_old_open"]
    assert await ids(app, queue["p_priya"], limit=2) == ["e_new_open", "e_beacon"]
    refused = await app.get("/admin/api/escalations", params={"property_id": "pf_capitol"}, headers=queue["p_priya"])
    assert refused.status_code == 403
    assert (await app.get("/admin/api/escalations", params={"status": "bogus"}, headers=AUTH)).status_code == 422


async def test_who_is_a_name_and_the_last_four_digits(app, queue):
    answer = await app.get("/admin/api/escalations", headers=queue["p_priya"])
    first = answer.json()["escalations"][0]
    assert (first["name"], first["wire_address_last4"], first["person_id"]) == ("Marcus Johnson", "1001", "p_marcus")
    assert (first["urgency"], first["status"], first["channel"]) == ("emergency", "open", "sms")
    assert first["page"] == {"status": "none", "level": None, "acknowledged_by": None}
    assert first["trace_url"] == "/admin/traces/ix_e_new_open"
    assert "2065551001" not in answer.text and "+1206" not in answer.text


async def test_acknowledge_then_resolve_record_the_signed_in_person(app, queue, spine):
    url = "/admin/api/escalations/e_old_open"
    acked = await app.post(url + "/acknowledge", json={"note": "calling him now"}, headers=queue["p_priya"])
    assert acked.status_code == 200, acked.text
    body = acked.json()
    assert (body["status"], body["acknowledged_by"]) == ("acknowledged", "p_priya")
    assert body["notes"][0]["note"] == "calling him now"
    assert await ids(app, queue["p_priya"], status="open") == ["e_new_open", "e_beacon"]
    assert await ids(app, queue["p_priya"], status="acknowledged") == ["e_old_open"]
    [event] = await spine.events(EventKind.ESCALATION_ACKNOWLEDGED)
    assert event.detail["by"] == "p_priya" and event.detail["escalation_id"] == "e_old_open"
    again = await app.post(url + "/acknowledge", headers=queue["p_priya"])  # no body: the note is optional
    assert again.status_code == 200 and len(again.json()["notes"]) == 1  # a repeated click changes nothing
    done = await app.post(url + "/resolve", json={"note": "fixed"}, headers=queue["p_priya"])
    assert (done.json()["status"], done.json()["resolved_by"]) == ("resolved", "p_priya")
    assert len(await spine.events(EventKind.ESCALATION_RESOLVED)) == 1
    assert (await app.post(url + "/acknowledge", headers=queue["p_priya"])).status_code == 409
    assert (await spine.get_escalation("e_old_open")).status == "resolved"


async def test_a_viewer_and_staff_elsewhere_cannot_act(app, queue, spine):
    viewer = await app.post("/admin/api/escalations/e_old_open/acknowledge", headers=queue["p_sam"])
    assert viewer.status_code == 403
    assert "e_old_open" in await ids(app, queue["p_sam"])  # a viewer reads
    elsewhere = await app.post("/admin/api/escalations/e_old_open/resolve", headers=queue["p_nora"])
    assert elsewhere.status_code == 404
    assert (await app.post("/admin/api/escalations/e_old_open/delete", headers=AUTH)).status_code == 404
    bad = await app.post("/admin/api/escalations/e_old_open/resolve", json={"note": "x" * 3000}, headers=AUTH)
    assert bad.status_code == 422
    assert (await spine.get_escalation("e_old_open")).status == "open"
    assert not await spine.events(EventKind.ESCALATION_RESOLVED)


async def test_the_page_lists_and_offers_actions(app, queue):
    page = await app.get("/admin/escalations", headers=queue["p_priya"])
    assert page.status_code == 200
    assert "Marcus Johnson" in page.text and "…1001" in page.text and "reason e_capitol" not in page.text
    assert "/admin/api/escalations/e_old_open/acknowledge" in page.text
    viewer = await app.get("/admin/escalations", headers=queue["p_sam"])
    assert "reason e_old_open" in viewer.text and "/acknowledge" not in viewer.text


async def test_the_page_state_is_the_ladders(app, spine):
    from desk.oncall.ack import acknowledge
    from desk.oncall.paging import PageRequest, start_page
    from spine.oncall import PageVia

    await escalation(spine, "e_paged", "pf_yale", urgency="emergency")
    started = await start_page(spine, PageRequest(page_id="pg_e_paged", property_id="pf_yale", reason="fire",
                                                  escalation_id="e_paged", interaction_id="ix_e_paged"))
    await spine.change_escalation("e_paged", lambda e: e.model_copy(update={"page_id": started.page_id}))
    [paged] = (await app.get("/admin/api/escalations", headers=AUTH)).json()["escalations"]
    assert paged["page"] == {"status": "paging", "level": 1, "acknowledged_by": None}  # demo plan: level 1 p_mike
    await acknowledge(spine, "pg_e_paged", "p_mike", PageVia.SMS)
    [acked] = (await app.get("/admin/api/escalations", headers=AUTH)).json()["escalations"]
    assert acked["page"] == {"status": "acknowledged", "level": 1, "acknowledged_by": "p_mike"}


async def _paged_escalation(spine, esc_id: str) -> None:
    from desk.oncall.paging import PageRequest, start_page

    await escalation(spine, esc_id, "pf_yale", urgency="emergency", person_id="p_marcus")
    started = await start_page(spine, PageRequest(page_id=f"pg_{esc_id}", property_id="pf_yale", reason="gas smell",
                                                  escalation_id=esc_id, interaction_id=f"ix_{esc_id}",
                                                  reporter_person_id="p_marcus"))
    await spine.change_escalation(esc_id, lambda e: e.model_copy(update={"page_id": started.page_id}))


async def _ladder_after_timeout(spine, page_id: str) -> tuple[object, list]:
    """The page and what its next step queues, as the scheduler would take it an hour later."""
    from datetime import timedelta

    from desk.oncall.paging import advance_page
    from spine.identity import utcnow

    page, version = await spine.read_page(page_id)
    queued = await advance_page(spine, page, version, now=utcnow() + timedelta(hours=1))
    return (await spine.read_page(page_id))[0], queued


@pytest.mark.parametrize("action", ["acknowledge", "resolve"])
async def test_acting_on_an_emergency_in_the_console_takes_its_page(app, spine, action):
    """Hardening 3: the console's acknowledge or resolve acknowledges the page for the signed-in
    person: the ladder stops (Priya is not paged next, Marcus never hears "call 911") and the
    reporter is told who has it."""
    auth = await staff(spine, "p_priya")
    await _paged_escalation(spine, "e_gas")
    answer = await app.post(f"/admin/api/escalations/e_gas/{action}", json={"note": "on my way"},
                            headers=auth["p_priya"])
    assert answer.status_code == 200, answer.text
    assert answer.json()["page"] == {"status": "acknowledged", "level": 1, "acknowledged_by": "p_priya"}
    page, queued = await _ladder_after_timeout(spine, "pg_e_gas")
    assert page.acknowledged_via == "staff" and queued == []  # no next level, no exhaustion notice
    told = [m for m in await spine.outbox(limit=500) if m.recipient_person_id == "p_marcus"]
    assert [m.kind for m in told] == ["notify"] and "Priya" in told[0].body
    events = await spine.events(kind=EventKind.ONCALL_ACKNOWLEDGED)
    assert [e.detail["acknowledged_by"] for e in events] == ["p_priya"] and events[0].reason == "staff"


async def test_a_page_taken_by_text_is_left_to_its_taker_when_the_console_resolves(app, spine):
    from desk.oncall.ack import acknowledge
    from spine.oncall import PageVia

    auth = await staff(spine, "p_priya")
    await _paged_escalation(spine, "e_taken")
    await acknowledge(spine, "pg_e_taken", "p_mike", PageVia.SMS)
    answer = await app.post("/admin/api/escalations/e_taken/resolve", headers=auth["p_priya"])
    assert answer.json()["page"]["acknowledged_by"] == "p_mike"
