"""pm_list_tours: the leasing staff's view of the property's tour index. A tour the prospect books
with schedule_tour is listed on its local day; today and tomorrow are the property's; cancelled
tours are not listed; a bad period is the model's error to fix. Who may list is the policy table's
(tests/support/tool_helpers.py: viewers, maintenance, vendors, tenants and prospects are refused)."""
from __future__ import annotations

import itertools
import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from spine.toolspec import ToolInvocation
from spine.work import TourStatus
from tools.dispatch import dispatch

_ids = itertools.count()
SEATTLE = ZoneInfo("America/Los_Angeles")  # pf_yale's timezone


async def _call(spine, caller, tool: str, **input):
    return await dispatch(spine, ToolInvocation(name=tool, input=input, tool_use_id=f"tl_{next(_ids)}"), caller)


async def _listed(spine, caller, **input) -> dict:
    result = await _call(spine, caller, "pm_list_tours", **input)
    assert not result.is_error, result.content
    return json.loads(result.content)


async def test_a_booked_tour_is_listed_for_the_leasing_team_on_its_day(spine, callers):
    booked = json.loads((await _call(spine, callers["prospect"], "schedule_tour", when="2031-01-10T23:30:00",
                                     unit="401")).content)
    for staff in ("lena", "priya", "olga"):
        out = await _listed(spine, callers[staff], day="2031-01-10")
        assert [(t["tour_id"], t["unit"], t["prospect"]) for t in out["tours"]] == [
            (booked["tour_id"], "401", "Prospect 9876")]
        assert out["tours"][0]["scheduled_at"] == "2031-01-10T23:30:00-08:00"  # local, though the 11th in UTC
    assert (await _listed(spine, callers["lena"], day="2031-01-11"))["tours"] == []


async def test_today_and_tomorrow_are_the_propertys_days(spine, callers):
    today = datetime.now(SEATTLE).date()  # the demo seeds Tess's tours today 3pm and tomorrow 11am, Seattle time
    out = await _listed(spine, callers["lena"])
    assert (out["first_day"], out["last_day"]) == (today.isoformat(), today.isoformat())
    assert [(t["prospect"], t["unit"], t["scheduled_at"][11:16]) for t in out["tours"]] == [("Tess Morgan", "401", "15:00")]
    tomorrow = await _listed(spine, callers["lena"], day="tomorrow")
    assert tomorrow["first_day"] == (today + timedelta(days=1)).isoformat()
    assert [t["unit"] for t in tomorrow["tours"]] == ["415"]
    week = await _listed(spine, callers["lena"], days=7)
    assert week["last_day"] == (today + timedelta(days=6)).isoformat() and [t["unit"] for t in week["tours"]] == [
        "401", "415"]


async def test_cancelled_tours_are_not_listed(spine, callers):
    [first, second] = sorted(await spine.tours_of("p_tess"), key=lambda t: t.scheduled_at)
    second.status = TourStatus.CANCELLED
    await spine.put_tour(second)
    week = await _listed(spine, callers["lena"], days=7)
    assert [t["tour_id"] for t in week["tours"]] == [first.id]


async def test_a_bad_period_is_an_error_the_model_can_read(spine, callers):
    for bad in ({"days": 0}, {"days": 30}, {"day": "next tuesday"}, {"day": "2031-02-30"}):
        result = await _call(spine, callers["lena"], "pm_list_tours", **bad)
        said = result.content.removeprefix("Error: invalid input for pm_list_tours: ")
        assert result.is_error and result.rule == "invalid-input" and said.startswith(next(iter(bad))), bad
