"""Who a transfer rings, in order (ARCHITECTURE.md "Voice: a caller reaches a person").

In office hours (the property's zone) a normal or urgent transfer rings the office line; outside
them, or for an emergency, the property's on-call plan level by level, the same plan a page reads
(desk/oncall), each person once. With no on-call plan (or nobody on it with a phone) an open office
is still tried: a caller is never left with nobody when someone could answer."""
from __future__ import annotations

import asyncio
from datetime import datetime

from desk.oncall.people import may_be_on_call
from spine.oncall import OnCallPlan
from spine.property import Property
from spine.repo import Spine
from spine.transfer import TargetKind, TransferTarget, Urgency

OFFICE_LABEL = "the office"


async def transfer_targets(spine: Spine, prop: Property, urgency: Urgency,
                           at: datetime | None = None) -> tuple[bool, list[TransferTarget]]:
    """(whether the office is open now, the targets in the order they are rung). Two round trips at
    most (the caller waits on them): the office with the plan, then everyone on the plan and their
    roles at once (the on-call rule asks them)."""
    office, plan = await spine.office_and_oncall_plan(prop.id)
    open_now = office is not None and office.is_open(at or spine.clock(), prop.timezone)  # tests set the clock
    office_target = [TransferTarget(kind=TargetKind.OFFICE, phone=office.phone, label=OFFICE_LABEL)] \
        if office is not None and open_now else []
    if open_now and urgency != "emergency":
        return True, office_target
    on_call = await _on_call_targets(spine, prop, plan) if plan is not None else []
    return open_now, on_call or office_target


async def _on_call_targets(spine: Spine, prop: Property, plan: OnCallPlan) -> list[TransferTarget]:
    """Everyone on the plan with a phone whom the on-call rule still admits (desk/oncall/people.py:
    staff or a vendor contact of the property, alive, active; the rule a page follows), each once."""
    on_plan = list(dict.fromkeys(p for level in plan.levels for p in level))
    # The people and their roles read at once: one round trip, however many are on the plan.
    people, roles = await asyncio.gather(spine.get_people(on_plan),
                                         asyncio.gather(*(spine.roles_of(p) for p in on_plan)))
    roles_of = dict(zip(on_plan, roles, strict=True))
    targets: list[TransferTarget] = []
    seen: set[str] = set()
    for number, level in enumerate(plan.levels, start=1):
        for person_id in level:
            person = people.get(person_id) if person_id not in seen else None
            seen.add(person_id)
            if person is None or not person.phones() or not await may_be_on_call(spine, person, roles_of[person_id], prop):
                continue
            targets.append(TransferTarget(kind=TargetKind.ONCALL, phone=person.phones()[0], person_id=person_id,
                                          label=f"{person.display_name} (on-call level {number})", level=number))
    return targets


async def rung_by_a_page(spine: Spine, person_id: str | None, property_id: str) -> bool:
    """Whether a running page of this property is ringing this person right now (its current
    level holds them): the transfer passes them by, so one emergency never rings a phone twice at
    once (the page's own call reaches them)."""
    if person_id is None:
        return False
    for page in await spine.open_pages_held_by(person_id):
        if page.property_id == property_id and page.is_open and page.step >= 0 \
                and person_id in page.plan.levels[page.level]:
            return True
    return False
