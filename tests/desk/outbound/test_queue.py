"""queue_outbound: the one "may we contact this person now" check, on the demo store with an
injected clock (Spine.clock) rather than waiting for 09:00."""
from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from desk.outbound.queue import NotificationKind, NotificationStatus, OutboundRequest, queue_outbound
from spine import keys
from spine.context import Channel
from spine.records import EventKind, LastContact, OptOut, OutboxStatus
from spine.store.base import Item
from tests.support.introduction_helpers import YALE_EN

SEATTLE = ZoneInfo("America/Los_Angeles")  # JP Yale Station's time zone
MARCUS_PHONE, MARCUS_EMAIL = "+12065551001", "marcus@example.com"


def at(hour: int, minute: int = 0, day: int = 2) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=SEATTLE).astimezone(UTC)


def notice(key: str = "notify:test", person: str = "p_marcus", **extra) -> OutboundRequest:
    return OutboundRequest(key=key, kind=NotificationKind.NOTIFY, recipient_person_id=person, property_id="pf_yale",
                           body="Update on WO-7: Mike is on his way.", **extra)


@pytest.fixture
def clock(spine):
    now = {"t": at(10)}
    spine.clock = lambda: now["t"]
    return now


async def test_inside_the_window_it_is_queued_by_sms_from_the_property_number(spine, clock):
    sent = await queue_outbound(spine, notice())
    assert (sent.status, sent.channel) == (NotificationStatus.QUEUED, Channel.SMS)
    row = await spine.get_outbox(sent.outbox_id)
    assert (row.status, row.to_address, row.from_address, row.not_before) == (
        OutboxStatus.PENDING, MARCUS_PHONE, "+12065550100", None)
    assert (row.kind, row.recipient_person_id, row.property_id) == ("notify", "p_marcus", "pf_yale")
    assert [e.detail["outbox_id"] for e in await spine.events(EventKind.NOTIFY_SENT)] == [row.id]


async def test_outside_the_window_it_waits_for_nine_the_next_morning_in_the_property_zone(spine, clock):
    clock["t"] = at(21, 30)
    deferred = await queue_outbound(spine, notice())
    assert deferred.status == NotificationStatus.DEFERRED
    assert deferred.not_before == at(9, day=3)  # 17:00 UTC: Seattle's 09:00, not the server's
    row = await spine.get_outbox(deferred.outbox_id)
    assert (row.status, row.not_before) == (OutboxStatus.PENDING, at(9, day=3))
    assert len(await spine.events(EventKind.NOTIFY_DEFERRED)) == 1
    clock["t"] = at(7)  # early morning: today's 09:00
    assert (await queue_outbound(spine, notice(key="notify:early"))).not_before == at(9)


async def test_an_emergency_goes_at_once_outside_the_window(spine, clock):
    clock["t"] = at(2)
    urgent = await queue_outbound(spine, notice(urgent=True))
    assert urgent.status == NotificationStatus.QUEUED
    assert (await spine.get_outbox(urgent.outbox_id)).not_before is None


async def test_stop_by_sms_blocks_sms_and_leaves_email_open(spine, clock):
    await spine.set_opt_out(OptOut(address=MARCUS_PHONE, opted_out=True, keyword="STOP", channel=Channel.SMS))
    blocked = await queue_outbound(spine, notice())
    assert (blocked.status, blocked.reason) == (NotificationStatus.BLOCKED, "opted out of sms")
    assert (await spine.get_outbox(blocked.outbox_id)).status == OutboxStatus.BLOCKED
    assert len(await spine.events(EventKind.NOTIFY_BLOCKED)) == 1
    by_email = await queue_outbound(spine, notice(key="notify:email", channel=Channel.EMAIL))
    assert (by_email.status, by_email.channel) == (NotificationStatus.QUEUED, Channel.EMAIL)
    row = await spine.get_outbox(by_email.outbox_id)
    assert (row.to_address, row.from_address, row.subject) == (MARCUS_EMAIL, "yale@clara.example",
                                                              "A message from JP Yale Station")


async def test_blocked_is_the_one_not_sent_word_of_the_row_the_notification_and_the_event(spine, clock):
    await spine.set_opt_out(OptOut(address=MARCUS_PHONE, opted_out=True, keyword="STOP", channel=Channel.SMS))
    blocked = await queue_outbound(spine, notice())
    stored = await spine.store.get(keys.outbox(blocked.outbox_id))
    assert stored is not None and stored.data["status"] == blocked.status == "blocked"
    [event] = await spine.events(EventKind.NOTIFY_BLOCKED)
    assert (stored.data["error"], event.reason) == ("opted out of sms", "opted out of sms")


async def test_a_row_kept_suppressed_before_the_word_was_one_reads_as_blocked(spine, clock):
    legacy = {"id": "notify:test", "to_address": MARCUS_PHONE, "from_address": "+12065550100", "body": "old",
              "status": "suppressed", "error": "opted out of sms", "kind": "notify", "recipient_person_id": "p_marcus",
              "property_id": "pf_yale"}
    await spine.store.put(Item(pk=keys.outbox("notify:test"), data=legacy))
    assert (await spine.get_outbox("notify:test")).status == OutboxStatus.BLOCKED
    again = await queue_outbound(spine, notice())  # the same key: the row already written answers
    assert (again.status, again.reason) == (NotificationStatus.BLOCKED, "opted out of sms")


async def test_an_opt_out_recorded_before_channels_were_kept_still_holds(spine, clock):
    await spine.store.put(Item(pk=keys.legacy_opt_out(MARCUS_PHONE),
                               data=OptOut(address=MARCUS_PHONE, opted_out=True, keyword="STOP").model_dump(mode="json")))
    assert await spine.is_opted_out(MARCUS_PHONE)
    assert (await queue_outbound(spine, notice())).status == NotificationStatus.BLOCKED
    assert not await spine.is_opted_out(MARCUS_PHONE, Channel.VOICE)  # a page still calls


async def test_one_key_queues_one_row_and_one_event(spine, clock):
    first = await queue_outbound(spine, notice())
    again = await queue_outbound(spine, notice())
    assert again == first
    assert len(await spine.outbox()) == 1 and len(await spine.events(EventKind.NOTIFY_SENT)) == 1


async def test_a_held_row_takes_the_latest_body_when_asked_to_and_a_due_one_does_not(spine, clock):
    hold = at(10, 1)
    await queue_outbound(spine, notice(not_before=hold))
    await queue_outbound(spine, notice(replace_pending=True, not_before=hold).model_copy(update={"body": "ETA 4pm."}))
    assert [r.body for r in await spine.outbox()] == ["ETA 4pm." + YALE_EN]  # the first message's introduction kept
    clock["t"] = hold  # due: a sender may be taking it, so it is left as it is
    await queue_outbound(spine, notice(replace_pending=True, not_before=hold).model_copy(update={"body": "ETA 5pm."}))
    assert [r.body for r in await spine.outbox()] == ["ETA 4pm." + YALE_EN]


async def test_the_person_is_reached_on_their_last_channel(spine, clock):
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.EMAIL, address=MARCUS_EMAIL))
    found = await queue_outbound(spine, notice())
    assert found.channel == Channel.EMAIL
    assert (await spine.get_outbox(found.outbox_id)).to_address == MARCUS_EMAIL
    # an address that is no longer theirs is not used: back to SMS on the number on file
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.EMAIL, address="old@example.com"))
    assert (await queue_outbound(spine, notice(key="notify:2"))).channel == Channel.SMS


@pytest.mark.parametrize(("person", "reason"), [("p_ruth", "deceased"), ("p_spam", "person marked spam"),
                                                ("p_marcus_old", "merged into p_marcus"),
                                                ("p_nobody", "no such person")])
async def test_people_who_may_not_be_reached_are_blocked(spine, clock, person, reason):
    blocked = await queue_outbound(spine, notice(person=person))
    assert (blocked.status, blocked.reason) == (NotificationStatus.BLOCKED, reason)


async def test_the_window_is_the_propertys_own_zone(spine, clock):
    denver = ZoneInfo("America/Denver")  # Capitol Flats: 09:30 there is 08:30 in Seattle
    clock["t"] = datetime(2026, 12, 2, 9, 30, tzinfo=denver).astimezone(UTC)
    capitol = notice().model_copy(update={"property_id": "pf_capitol"})
    assert (await queue_outbound(spine, capitol)).status == NotificationStatus.QUEUED
    assert (await queue_outbound(spine, notice(key="notify:yale"))).status == NotificationStatus.DEFERRED
