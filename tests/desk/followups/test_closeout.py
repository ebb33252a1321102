"""Work-order close-out: a completed work order's reporter is asked, in the window, whether it is
fixed and for a 1-5 rating; a rating is recorded as submit_rating records it, "not fixed" reopens
the work order and tells its vendor and the managers, and after 48 h silence ends it quietly."""
from __future__ import annotations

from datetime import timedelta

import pytest

from desk.dispatch.notices import notify_work_order_change
from desk.followups.answers import answer_followup, stars_in
from desk.followups.engine import Step, run_due
from spine.records import EventKind, OutboxStatus
from spine.work import WorkOrderStatus
from tests.support.followup_helpers import row, seattle

FID = "wo_7-closeout-1"


async def _completed_and_asked(spine, at=None):
    at = at or seattle(11)
    spine.clock = lambda: at
    wo = await spine.get_work_order("wo_7")
    wo.status = WorkOrderStatus.COMPLETED
    await spine.put_work_order(wo)
    told = await notify_work_order_change(spine, wo, changed_by="p_mike")
    assert [n.kind for n in told] == ["notify", "followup"]  # the vendor's turn's trace lists both
    spine.clock = lambda: at + timedelta(hours=2)
    assert await run_due(spine, at + timedelta(hours=2)) == [Step.SENT]
    return at + timedelta(hours=2)


async def test_a_completed_work_order_asks_its_reporter_in_the_window(spine):
    sent_at = await _completed_and_asked(spine)
    asked = await row(spine, FID)
    assert asked.recipient_person_id == "p_marcus" and "WO-7" in asked.body and "1-5" in asked.body
    assert sent_at == seattle(13)


async def test_completed_at_night_is_asked_the_next_morning(spine):
    spine.clock = lambda: seattle(18, 30)
    wo = await spine.get_work_order("wo_7")
    wo.status = WorkOrderStatus.COMPLETED
    await spine.put_work_order(wo)
    await notify_work_order_change(spine, wo, changed_by="p_mike")
    assert await run_due(spine, seattle(20, 30)) == [Step.MOVED]  # 2 h later the window has closed
    assert await run_due(spine, seattle(9, 0, day=3)) == [Step.SENT]


@pytest.mark.parametrize(("text", "stars", "comment"), [
    ("5", 5, ""), ("5 thanks", 5, "thanks"), ("4/5", 4, ""), ("★★★", 3, ""), ("3 out of 5, slow but ok", 3, "slow but ok"),
    ("5 stars!", 5, ""), ("4 estrellas", 4, ""), ("fixed, thanks", None, None), ("I have 5 questions", None, None)])
def test_stars_in_reads_a_rating_and_its_comment(text, stars, comment):
    found = stars_in(text)
    assert (found[0] if found else None) == stars
    if found and comment is not None:
        assert found[1] == comment


async def test_a_rating_is_recorded_as_submit_rating_records_it(spine):
    sent_at = await _completed_and_asked(spine)
    answer = await answer_followup(spine, "p_marcus", "5 thanks", sent_at + timedelta(minutes=5))
    assert answer is not None and answer.reply == "Rated WO-7 5/5. Thank you!"
    wo = await spine.get_work_order("wo_7")
    assert wo.rating == 5 and wo.notes[-1].text == "Rating comment: thanks"
    assert await answer_followup(spine, "p_marcus", "4", sent_at + timedelta(minutes=6)) is None  # answered once


@pytest.mark.parametrize(("text", "told"), [("no", "reopened WO-7"), ("still leaking", "reopened WO-7"),
                                            ("not fixed", "reopened WO-7"), ("sigue goteando", "Reabrí la orden WO-7")])
async def test_not_fixed_reopens_and_tells_the_vendor_and_the_managers(spine, text, told):
    sent_at = await _completed_and_asked(spine)
    answer = await answer_followup(spine, "p_marcus", text, sent_at + timedelta(minutes=5))
    assert answer is not None and told in answer.reply  # in the language of the answer
    wo = await spine.get_work_order("wo_7")
    assert wo.status == WorkOrderStatus.OPEN and wo.notes[-1].text.startswith("Reopened")
    assert {n.recipient_person_id for n in answer.notifications} >= {"p_mike", "p_priya"}
    [event] = await spine.events(EventKind.WORK_ORDER_REOPENED)
    assert event.detail["work_order"] == "WO-7"


async def test_after_48_hours_silence_ends_it_quietly(spine):
    sent_at = await _completed_and_asked(spine)
    assert await answer_followup(spine, "p_marcus", "no", sent_at + timedelta(hours=49)) is None
    assert (await spine.get_work_order("wo_7")).status == WorkOrderStatus.COMPLETED
    rows = await spine.outbox(OutboxStatus.PENDING, limit=500)
    assert [r.id for r in rows if r.recipient_person_id == "p_marcus" and "fixed" in r.body] == [
        "followup-" + FID]  # the question alone: no reminder, no second ask


async def test_reopened_before_the_question_leaves_it_unasked(spine):
    spine.clock = lambda: seattle(11)
    wo = await spine.get_work_order("wo_7")
    wo.status = WorkOrderStatus.COMPLETED
    await notify_work_order_change(spine, wo, changed_by="p_mike")
    wo.status = WorkOrderStatus.OPEN
    await spine.put_work_order(wo)
    assert await run_due(spine, seattle(13)) == [Step.STOPPED]
    assert await row(spine, FID) is None
