"""Staff set a tour's outcome: completed, no_show or cancelled, the signed-in person recorded and
an event; scoped (Nora has no Yale tour), a viewer reads only, any other status is refused."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from spine.records import EventKind
from spine.work import Tour
from tests.support.console_helpers import console_app, staff


@pytest.fixture
async def app(spine):
    client, context = console_app(spine)
    yield client
    await client.aclose()
    await context.http.aclose()


@pytest.fixture
async def people(spine):
    await spine.put_tour(Tour(id="tour_t1", prospect_person_id="p_tess", property_id="pf_yale", unit_id="u_yale_401",
                              scheduled_at=datetime.now(UTC) - timedelta(hours=1)))
    return await staff(spine, "p_priya", "p_nora", "p_sam", "p_lena")


async def test_staff_mark_a_tour_no_show_then_completed(app, people, spine):
    marked = await app.post("/admin/api/tours/tour_t1", json={"status": "no_show"}, headers=people["p_lena"])
    assert marked.status_code == 200, marked.text
    assert (marked.json()["status"], marked.json()["status_by_person_id"]) == ("no_show", "p_lena")
    assert (await spine.get_tour("tour_t1")).status == "no_show"
    done = await app.post("/admin/api/tours/tour_t1", json={"status": "completed"}, headers=people["p_priya"])
    assert done.json()["status"] == "completed"
    again = await app.post("/admin/api/tours/tour_t1", json={"status": "completed"}, headers=people["p_priya"])
    assert again.status_code == 200
    events = await spine.events(EventKind.TOUR_STATUS)
    assert sorted((e.detail["status"], e.detail["by"]) for e in events) == [("completed", "p_priya"),
                                                                          ("no_show", "p_lena")]


async def test_scoped_read_only_for_a_viewer_and_only_the_staff_statuses(app, people, spine):
    assert (await app.post("/admin/api/tours/tour_t1", json={"status": "completed"},
                           headers=people["p_nora"])).status_code == 404  # Beacon's pm: not her tour
    assert (await app.post("/admin/api/tours/tour_t1", json={"status": "completed"},
                           headers=people["p_sam"])).status_code == 403
    assert (await app.post("/admin/api/tours/tour_t1", json={"status": "scheduled"},
                           headers=people["p_priya"])).status_code == 422
    assert (await spine.get_tour("tour_t1")).status == "scheduled"
    assert await spine.events(EventKind.TOUR_STATUS) == []
