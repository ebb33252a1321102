"""A started message's purpose: marketing never reaches a number that never wrote to us, an
opted-out person, or anyone at once (urgent), and keeps 08:00-21:00 in the recipient's zone;
service is as before. Clara's first follow-up to a
person says she is an AI assistant, once."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from desk.outbound.contact_window import in_marketing_window, recipient_zone, sending_opens
from desk.outbound.queue import NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.identity import Claim, ClaimKind, Person
from spine.notification import Purpose
from spine.records import LastContact, OptOut, OutboxStatus

MARCUS = "+12065551001"


def _req(key: str, purpose: Purpose = Purpose.MARKETING, kind: NotificationKind = NotificationKind.FOLLOWUP,
         person: str = "p_marcus", **extra) -> OutboundRequest:
    return OutboundRequest(key=key, kind=kind, recipient_person_id=person, property_id="pf_yale",
                           body="Units are open for tours this week.", purpose=purpose, channel=Channel.SMS, **extra)


async def test_marketing_only_to_a_number_that_wrote_to_us(spine):
    never = await queue_outbound(spine, _req("m1"))
    assert never.status == NotificationStatus.BLOCKED and "wrote to us" in (never.reason or "")
    service = await queue_outbound(spine, _req("s1", purpose=Purpose.SERVICE))
    assert service.status != NotificationStatus.BLOCKED
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address=MARCUS))
    wrote = await queue_outbound(spine, _req("m2"))
    assert wrote.status != NotificationStatus.BLOCKED


async def test_marketing_is_never_urgent_and_never_to_an_opted_out_person(spine):
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address=MARCUS))
    assert (await queue_outbound(spine, _req("m3", urgent=True))).reason == "marketing is never urgent"
    await spine.set_opt_out(OptOut(address=MARCUS, opted_out=True, keyword="STOP", channel=Channel.SMS))
    blocked = await queue_outbound(spine, _req("m4"))
    assert blocked.status == NotificationStatus.BLOCKED
    assert (await spine.get_outbox("m4")).status == OutboxStatus.BLOCKED


async def test_the_first_follow_up_says_clara_is_an_ai_assistant_once(spine):
    await queue_outbound(spine, _req("f1", purpose=Purpose.SERVICE))
    await queue_outbound(spine, _req("f2", purpose=Purpose.SERVICE))
    first, second = await spine.get_outbox("f1"), await spine.get_outbox("f2")
    assert "AI assistant at JP Yale Station" in first.body
    assert "AI assistant" not in second.body


# -- the TCPA's 08:00-21:00 in the recipient's zone ------------------------------------------------
NEW_YORKER, NEW_YORK_PHONE = "p_nyc", "+12125550147"


def _seattle(hour: int, minute: int = 0, day: int = 2) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=ZoneInfo("America/Los_Angeles")).astimezone(UTC)


async def _wrote(spine, person_id: str, phone: str) -> None:
    await spine.put_person(Person(id=person_id, display_name="Dana", claims=[Claim(kind=ClaimKind.PHONE, value=phone)]))
    await spine.note_last_contact(LastContact(person_id=person_id, channel=Channel.SMS, address=phone))


def test_the_recipients_zone_is_their_numbers_when_it_has_one():
    assert recipient_zone("America/Los_Angeles", Channel.SMS, NEW_YORK_PHONE) == "America/New_York"
    assert recipient_zone("America/Los_Angeles", Channel.SMS, "+18005550100") == "America/Los_Angeles"  # toll-free
    assert recipient_zone("America/Los_Angeles", Channel.EMAIL, "dana@example.com") == "America/Los_Angeles"


def test_marketing_waits_for_an_hour_inside_both_windows():
    seattle, honolulu = "America/Los_Angeles", "Pacific/Honolulu"
    # 18:30 in Seattle is 21:30 in New York: tomorrow's 09:00 in Seattle (12:00 there) is the first both allow.
    late = _seattle(18, 30)
    assert sending_opens(late, Purpose.MARKETING, seattle, "America/New_York") == _seattle(9, day=3)
    assert sending_opens(late, Purpose.SERVICE, seattle, "America/New_York") == late
    # 09:00 in Seattle is 07:00 in Honolulu: 08:00 there (10:00 in Seattle).
    assert sending_opens(_seattle(9), Purpose.MARKETING, seattle, honolulu) == _seattle(10)
    # Half a world away the windows never meet: the TCPA's alone.
    assert in_marketing_window(sending_opens(_seattle(9), Purpose.MARKETING, seattle, "Asia/Tokyo"), "Asia/Tokyo")


async def test_a_marketing_text_at_6_30_pm_in_seattle_waits_for_a_new_yorkers_morning(spine):
    spine.clock = lambda: _seattle(18, 30)
    await _wrote(spine, NEW_YORKER, NEW_YORK_PHONE)
    held = await queue_outbound(spine, _req("ny-m", person=NEW_YORKER))
    assert (await spine.get_outbox(held.outbox_id)).not_before == _seattle(9, day=3)
    # told as held, with when it goes, though the property's own window is open
    assert held.status == NotificationStatus.DEFERRED and held.not_before == _seattle(9, day=3)
    service = await queue_outbound(spine, _req("ny-s", person=NEW_YORKER, purpose=Purpose.SERVICE))
    assert (await spine.get_outbox(service.outbox_id)).not_before is None  # the property's window: now
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address=MARCUS))
    local = await queue_outbound(spine, _req("sea-m"))
    assert (await spine.get_outbox(local.outbox_id)).not_before is None  # a Seattle number: 18:30 is fine
