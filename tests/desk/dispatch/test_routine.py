"""New routine work orders reach the property's team batched: one message per person per 15
minutes listing them (the batch and its outbox row keyed by person and slot, so a retry queues
once), the `maintenance` role first else the managers, the night's in one message at 09:00, and an
emergency never batched (it pages)."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from desk.dispatch.routine import tell_team_of_routine
from desk.portfolio.demo import AT
from spine.identity import PersonRole, PersonRoleSource, PersonRoleType, RoleScope
from spine.work import WorkOrder

SEATTLE = ZoneInfo("America/Los_Angeles")


def local(hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, 2, hour, minute, tzinfo=SEATTLE).astimezone(UTC)


@pytest.fixture
def clock(spine):
    now = {"t": local(10, 1)}
    spine.clock = lambda: now["t"]
    return now


def order(n: int, brief: str, priority: str = "normal", property_id: str = "pf_yale") -> WorkOrder:
    return WorkOrder(id=f"wo_{n}", display_id=f"WO-{n}", property_id=property_id, unit_id="u_yale_204",
                     brief=brief, priority=priority)


async def test_one_message_per_quarter_hour_lists_every_new_order(spine, clock):
    [first] = await tell_team_of_routine(spine, order(801, "dripping sink"))
    assert (first.recipient_person_id, first.kind, first.status) == ("p_priya", "staff", "queued")
    clock["t"] = local(10, 9)
    [second] = await tell_team_of_routine(spine, order(802, "dishwasher won't drain"))
    assert second.outbox_id == first.outbox_id  # the same message, renewed
    await tell_team_of_routine(spine, order(802, "dishwasher won't drain"))  # a retry adds nothing
    [row] = await spine.outbox()
    assert "2 work orders" in row.body and "WO-801 dripping sink (unit 204)" in row.body and "WO-802" in row.body
    assert row.not_before == local(10, 15)  # held to the slot's end
    clock["t"] = local(10, 16)
    [third] = await tell_team_of_routine(spine, order(803, "closet door off its track"))
    assert third.outbox_id != first.outbox_id
    later = await spine.get_outbox(third.outbox_id)
    assert "WO-803" in later.body and "WO-801" not in later.body and later.not_before == local(10, 30)


async def test_the_maintenance_role_comes_before_the_managers(spine, clock):
    await spine.put_role(PersonRole(id="sr_mike_maint", person_id="p_mike", role_type=PersonRoleType.MAINTENANCE,
                                    source=PersonRoleSource.MANUAL_PM, created_at=AT,
                                    scope=RoleScope(org_id="org_propflow", property_id="pf_yale")))
    told = await tell_team_of_routine(spine, order(801, "dripping sink"))
    assert [n.recipient_person_id for n in told] == ["p_mike"]
    beacon = await tell_team_of_routine(spine, order(802, "squeaky door", property_id="pf_beacon"))
    assert sorted(n.recipient_person_id for n in beacon) == ["p_nora", "p_priya"]  # Mike is Yale's only


async def test_the_night_is_one_message_at_nine_and_an_emergency_is_never_batched(spine, clock):
    clock["t"] = local(22, 30)
    [night] = await tell_team_of_routine(spine, order(801, "fan stopped"))
    clock["t"] = local(23, 50)
    [again] = await tell_team_of_routine(spine, order(802, "drawer stuck"))
    assert night.status == "deferred" and again.outbox_id == night.outbox_id
    row = await spine.get_outbox(night.outbox_id)
    assert row.not_before == datetime(2026, 12, 3, 9, tzinfo=SEATTLE).astimezone(UTC)
    assert "2 work orders" in row.body
    assert await tell_team_of_routine(spine, order(803, "gas smell", priority="emergency")) == []
