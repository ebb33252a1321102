"""A marketing follow-up keeps the TCPA's 08:00-21:00 in the recipient's zone (their number's), not
only the property's window: at 18:30 in Seattle a New Yorker's is moved to the next morning, while a
service step (or a Seattle number) goes."""
from __future__ import annotations

from desk.followups.engine import Step, take_step
from spine.context import Channel
from spine.followup import Follows, FollowUp, FollowUpKind, StopOn
from spine.identity import Claim, ClaimKind, Person
from spine.notification import Purpose
from spine.records import LastContact
from tests.support.followup_helpers import seattle


async def _step(spine, purpose: Purpose, phone: str) -> tuple[Step, FollowUp]:
    person_id = f"p_{phone[-4:]}"
    await spine.put_person(Person(id=person_id, display_name="Dana", claims=[Claim(kind=ClaimKind.PHONE, value=phone)]))
    await spine.note_last_contact(LastContact(person_id=person_id, channel=Channel.SMS, address=phone))
    fu = FollowUp(id=f"lead-{person_id}-{purpose}", person_id=person_id, property_id="pf_yale",
                  kind=FollowUpKind.TOUR_APPLICATION, purpose=purpose, due_at=seattle(18, 30), follows=Follows.TOUR,
                  follows_id="tour_none", stop_on=[StopOn.TAKEOVER, StopOn.OPT_OUT])
    await spine.create_followup(fu)
    [(due, version)] = [(f, v) for f, v in await spine.due_followups(seattle(18, 30)) if f.id == fu.id]
    step = await take_step(spine, due, version, seattle(18, 30))
    return step, (await spine.read_followup(fu.id))[0]


async def test_a_new_yorkers_marketing_step_moves_to_a_morning_both_windows_allow(spine):
    spine.clock = lambda: seattle(18, 30)
    step, after = await _step(spine, Purpose.MARKETING, "+12125550147")  # 21:30 in New York
    assert step == Step.MOVED and after.due_at == seattle(9, day=3)


async def test_a_seattle_number_is_not_held(spine):
    spine.clock = lambda: seattle(18, 30)
    step, after = await _step(spine, Purpose.MARKETING, "+12065550147")
    assert step != Step.MOVED and after.due_at == seattle(18, 30)
    assert after.stopped_reason == "record gone"  # it went on to its words (the tour here is none)
