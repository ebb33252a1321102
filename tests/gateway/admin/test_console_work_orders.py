"""The work-order board: every work order newest first, filtered and scoped as escalations are
(Nora sees Beacon's only); one work order with its notes and changes carrying who made each;
staff changes record the signed-in person and an event and reach the tenant as a vendor's do; a
viewer reads only. The board is kept as records change (a status change moves its copies)."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from spine.records import EventKind
from spine.work import WorkOrder, WorkOrderPmsLink
from tests.support.admin_helpers import AUTH
from tests.support.console_helpers import console_app, staff

URL = "/admin/api/work_orders"


@pytest.fixture
async def app(spine):
    spine.clock = lambda: datetime(2026, 12, 2, 11, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)
    client, context = console_app(spine)
    yield client
    await client.aclose()
    await context.http.aclose()


@pytest.fixture
async def people(spine):
    newest = WorkOrder(id="wo_900", display_id="WO-900", property_id="pf_yale", unit_id="u_yale_204",
                       brief="dripping sink", priority="urgent", created_by_person_id="p_marcus",
                       created_at=datetime.now(UTC) + timedelta(minutes=1),
                       pms=WorkOrderPmsLink(system="buildium", id="BLD-77", synced_at=datetime(2026, 12, 1, tzinfo=UTC)))
    await spine.put_work_order(newest)
    return await staff(spine, "p_priya", "p_nora", "p_sam")


async def ids(app, headers, **params) -> list[str]:
    answer = await app.get(URL, params=params, headers=headers)
    assert answer.status_code == 200, answer.text
    return [w["display_id"] for w in answer.json()["work_orders"]]


async def test_newest_first_filtered_and_scoped_as_escalations(app, people):
    assert await ids(app, people["p_priya"]) == ["WO-900", "WO-90", "WO-7", "WO-42"]  # org_propflow: no Capitol
    assert await ids(app, people["p_nora"]) == ["WO-90"]  # pm of pf_beacon only
    assert await ids(app, AUTH) == ["WO-900", "WO-90", "WO-7", "WO-51", "WO-42"]
    assert await ids(app, people["p_priya"], status="in_progress") == ["WO-7", "WO-42"]
    assert await ids(app, people["p_priya"], priority="urgent") == ["WO-900"]
    assert await ids(app, people["p_priya"], property_id="pf_yale", status="open", priority="urgent") == ["WO-900"]
    assert await ids(app, people["p_priya"], limit=1) == ["WO-900"]
    refused = await app.get(URL, params={"property_id": "pf_yale"}, headers=people["p_nora"])
    assert refused.status_code == 403
    assert (await app.get(URL + "/WO-7", headers=people["p_nora"])).status_code == 404


async def test_a_row_carries_the_pms_link_only_where_one_exists(app, people):
    rows = {w["display_id"]: w for w in (await app.get(URL, headers=people["p_priya"])).json()["work_orders"]}
    assert rows["WO-900"]["pms"] == {"system": "buildium", "id": "BLD-77", "synced_at": "2026-12-01T00:00:00Z"}
    assert rows["WO-7"]["pms"] is None
    assert (rows["WO-900"]["unit"], rows["WO-900"]["reporter_person_id"]) == ("204", "p_marcus")


async def test_a_status_change_is_recorded_with_who_and_reaches_the_tenant(app, people, spine):
    changed = await app.post(URL + "/WO-7", json={"status": "completed", "note": "toilet fixed, checked"},
                             headers=people["p_priya"])
    assert changed.status_code == 200, changed.text
    body = changed.json()
    assert body["status"] == "completed"
    assert body["changes"][-1]["field"] == "status" and body["changes"][-1]["by"] == {"id": "p_priya",
                                                                                     "name": "Priya Shah"}
    assert body["notes"][-1]["text"] == "toilet fixed, checked" and body["notes"][-1]["by"]["id"] == "p_priya"
    assert body["notes"][0]["by"]["id"] == "p_mike"  # older notes keep their authors
    [told] = [n for n in body["notifications"] if n["kind"] == "notify"]  # besides the close-out follow-up
    assert (told["recipient_person_id"], told["status"]) == ("p_marcus", "queued")
    [row] = await spine.outbox()
    assert "WO-7" in row.body and "The work is completed" in row.body
    [event] = await spine.events(EventKind.WORK_ORDER_CHANGED)
    assert event.detail["by"] == "p_priya" and event.detail["changed"] == ["status", "note"]
    assert await ids(app, people["p_priya"], status="completed") == ["WO-7"]
    assert await ids(app, people["p_priya"], status="in_progress") == ["WO-42"]  # its old copy moved
    again = await app.get(URL + "/WO-7", headers=people["p_priya"])
    assert again.json()["changes"][-1]["after"] == "completed"


async def test_a_viewer_reads_but_cannot_change(app, people, spine):
    assert (await app.get(URL + "/WO-7", headers=people["p_sam"])).status_code == 200
    refused = await app.post(URL + "/WO-7", json={"status": "completed"}, headers=people["p_sam"])
    assert refused.status_code == 403
    assert (await spine.get_work_order("wo_7")).status == "in_progress"
    assert await spine.events(EventKind.WORK_ORDER_CHANGED) == []


async def test_a_new_vendor_must_serve_the_property_and_is_dispatched(app, people, spine):
    wrong = await app.post(URL + "/WO-90", json={"vendor_id": "v_nobody"}, headers=people["p_nora"])
    assert wrong.status_code == 422
    moved = await app.post(URL + "/WO-90", json={"priority": "urgent"}, headers=people["p_nora"])
    assert moved.json()["priority"] == "urgent" and moved.json()["changes"][-1]["before"] == "normal"
    assert await ids(app, people["p_nora"], priority="normal") == []


async def test_the_board_page_lists_the_scope_only(app, people):
    page = await app.get("/admin/work-orders", headers=people["p_nora"])
    assert page.status_code == 200 and "WO-90" in page.text and "WO-7<" not in page.text
    one = await app.get("/admin/work-orders/WO-900", headers=people["p_priya"])
    assert "BLD-77" in one.text and "dripping sink" in one.text
