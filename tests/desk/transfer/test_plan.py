"""A transfer rings only whom the on-call rule admits (desk/oncall/people.py, the rule a page
follows): a tenant, a spam number, a person merged away or a vendor contact whose vendor stopped
serving the property is never rung, even when a plan set before still names them."""
from __future__ import annotations

from datetime import datetime

from desk.oncall.people import oncall_refusal
from desk.portfolio.demo import PEOPLE
from desk.transfer.plan import transfer_targets
from spine.oncall import OnCallPlan
from spine.transfer import TargetKind

NIGHT = datetime.fromisoformat("2026-12-06T07:00:00+00:00")  # 23:00 in Seattle: the office is shut


async def _rung(spine, levels: list[list[str]]) -> list[str | None]:
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=levels))
    _, targets = await transfer_targets(spine, await spine.get_property("pf_yale"), "emergency", at=NIGHT)
    return [t.person_id for t in targets if t.kind == TargetKind.ONCALL]


async def test_a_person_the_on_call_rule_refuses_is_never_rung(seeded_sqlite):
    spine = seeded_sqlite
    everyone = [p.id for p in PEOPLE]
    admitted = [p for p in everyone if await oncall_refusal(spine, p, "pf_yale") is None]
    refused = set(everyone) - set(admitted)
    assert {"p_marcus", "p_spam", "p_marcus_old"} <= refused and {"p_mike", "p_priya"} <= set(admitted)
    rung = await _rung(spine, [[p] for p in everyone])
    assert rung == [p for p in admitted if next(x for x in PEOPLE if x.id == p).phones()]
    assert not refused & set(rung)


async def test_a_vendor_that_stopped_serving_the_property_is_passed_by(seeded_sqlite):
    spine = seeded_sqlite
    assert await _rung(spine, [["p_mike"], ["p_priya"]]) == ["p_mike", "p_priya"]
    vendor = await spine.get_vendor("v_inhouse")
    await spine.put_vendor(vendor.model_copy(update={"active": False}))
    assert await _rung(spine, [["p_mike"], ["p_priya"]]) == ["p_priya"]
