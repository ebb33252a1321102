"""Tour follow-ups, driven by `run_due` with an injected clock: the reminders 24 h and 2 h before,
the no-show follow-up 30 min after unless staff marked the tour completed or cancelled, the
application link the next day; each sent once, within the window, and stopped by what stops it."""
from __future__ import annotations

import spine.keys as keys
from desk.followups.engine import Step, run_due
from desk.followups.plans import plan_tour
from spine.context import Channel
from spine.conversation import Conversation, Takeover
from spine.followup import FollowUpStatus
from spine.records import EventKind, LastContact, OptOut
from spine.work import TourStatus
from tests.support.followup_helpers import row, seattle, tour


async def _book(spine, at, **kw):
    t = tour(at, **kw)
    await spine.put_tour(t)
    planned = await plan_tour(spine, t, now=seattle(9, day=1), interaction_id="ix_booked")
    return t, planned


async def _status(spine, fid):
    fu, _ = await spine.read_followup(fid)
    return fu.status, fu.stopped_reason


async def test_booking_plans_four_steps_the_trace_can_list(spine):
    _, planned = await _book(spine, seattle(15, day=3))
    assert [(n.kind, n.status) for n in planned] == [("followup", "deferred")] * 4
    assert [n.not_before for n in planned] == [seattle(15, day=2), seattle(13, day=3), seattle(15, 30, day=3),
                                               seattle(15, day=4)]
    again = await plan_tour(spine, tour(seattle(15, day=3)), now=seattle(9, day=1))
    assert again == []  # planned once: a retried tool writes nothing new


async def test_each_reminder_is_sent_once_at_its_time(spine):
    await _book(spine, seattle(15, day=3))
    spine.clock = lambda: seattle(14, 59, day=2)
    assert await run_due(spine, seattle(14, 59, day=2)) == []  # not due yet
    assert await run_due(spine, seattle(15, 1, day=2)) == [Step.SENT]
    sent = await row(spine, "tour_t1-tour_reminder_24h")
    assert "tomorrow" in sent.body and sent.to_address == "+12065551001" and "AI assistant" in sent.body
    assert await run_due(spine, seattle(15, 2, day=2)) == []  # never twice
    assert await run_due(spine, seattle(13, day=3)) == [Step.SENT]
    assert "Running late" in (await row(spine, "tour_t1-tour_reminder_2h")).body
    [event, *_] = await spine.events(EventKind.FOLLOWUP_SENT)
    assert event.detail["followup_id"].startswith("tour_t1-") and event.interaction_id == "ix_booked"


async def test_a_step_outside_the_window_waits_for_nine(spine):
    await _book(spine, seattle(10, day=3))  # the 2 h reminder falls at 08:00
    assert await run_due(spine, seattle(10, 1, day=2)) == [Step.SENT]  # the 24 h one
    assert await run_due(spine, seattle(8, 0, day=3)) == [Step.MOVED]
    assert await row(spine, "tour_t1-tour_reminder_2h") is None
    assert await run_due(spine, seattle(9, 0, day=3)) == [Step.SENT]


async def test_no_show_follow_up_goes_unless_staff_marked_it_completed(spine):
    await _book(spine, seattle(15, day=3))
    await run_due(spine, seattle(15, day=2))
    await run_due(spine, seattle(13, day=3))
    assert await run_due(spine, seattle(15, 31, day=3)) == [Step.SENT]
    assert "missed you" in (await row(spine, "tour_t1-tour_no_show")).body
    t2, _ = await _book(spine, seattle(15, day=3), tour_id="tour_t2")
    await spine.put_tour(t2.model_copy(update={"status": TourStatus.COMPLETED}))
    steps = await run_due(spine, seattle(15, 31, day=3))
    assert Step.STOPPED in steps
    assert await _status(spine, "tour_t2-tour_no_show") == (FollowUpStatus.STOPPED, "tour completed")
    assert await run_due(spine, seattle(15, 1, day=4)) == [Step.SENT, Step.SENT]  # both application links
    assert "apply" in (await row(spine, "tour_t2-tour_application")).body


async def test_a_cancelled_tour_stops_every_step(spine):
    t, _ = await _book(spine, seattle(15, day=3))
    await spine.put_tour(t.model_copy(update={"status": TourStatus.CANCELLED}))
    assert await run_due(spine, seattle(16, day=4)) == [Step.STOPPED] * 4
    assert await row(spine, "tour_t1-tour_reminder_24h") is None
    assert {e.reason for e in await spine.events(EventKind.FOLLOWUP_STOPPED)} == {"tour cancelled"}


async def test_a_reply_after_the_tour_began_stops_the_no_show_follow_up(spine):
    await _book(spine, seattle(15, day=3))
    await run_due(spine, seattle(13, day=3))
    await spine.note_last_contact(LastContact(person_id="p_marcus", channel=Channel.SMS, address="+12065551001",
                                              at=seattle(15, 10, day=3)))  # "running late"
    assert await run_due(spine, seattle(15, 31, day=3)) == [Step.STOPPED]
    assert await _status(spine, "tour_t1-tour_no_show") == (FollowUpStatus.STOPPED, "replied")


async def test_a_takeover_and_an_opt_out_stop_follow_ups(spine):
    await _book(spine, seattle(15, day=3))
    await spine.change_conversation("p_marcus", "pf_yale", lambda h: Conversation(
        person_id="p_marcus", property_id="pf_yale",
        takeover=Takeover(staff_person_id="p_lena", started_at=seattle(14, day=2), last_staff_at=seattle(14, 50, day=2))))
    assert await run_due(spine, seattle(15, day=2)) == [Step.STOPPED]
    assert await _status(spine, "tour_t1-tour_reminder_24h") == (FollowUpStatus.STOPPED, "takeover")
    await spine.set_opt_out(OptOut(address="+12065551001", opted_out=True, keyword="STOP", channel=Channel.SMS))
    assert await run_due(spine, seattle(13, day=3)) == [Step.STOPPED]
    status, reason = await _status(spine, "tour_t1-tour_reminder_2h")
    assert status == FollowUpStatus.STOPPED and reason == "blocked: opted out of sms"


async def test_each_tick_finds_due_steps_with_one_query_per_index_shard(spine):
    await _book(spine, seattle(15, day=3))
    calls = []
    real = spine.store.query_index

    async def counted(key, *args, **kwargs):
        calls.append(key)
        return await real(key, *args, **kwargs)

    spine.store.query_index = counted  # a counting wrapper of the store's own call (no behaviour changed)
    await run_due(spine, seattle(15, 1, day=2))
    shards = [keys.followups_with_status("pending", shard) for shard in range(keys.FOLLOWUP_SHARDS)]
    assert sorted(c for c in calls if c.startswith("FOLLOWUPS#")) == sorted(shards)  # each once, no Scan
    assert len(set(shards)) == keys.FOLLOWUP_SHARDS > 1


async def test_a_reminder_the_window_would_make_untrue_is_stopped_not_sent(spine):
    await _book(spine, seattle(10, day=3))
    assert await run_due(spine, seattle(9, 30, day=3)) == [Step.STOPPED, Step.SENT]  # the 24 h one expired
    assert await _status(spine, "tour_t1-tour_reminder_24h") == (FollowUpStatus.STOPPED, "expired")
