"""Renewal outreach: an offer in the store, unanswered, reaches the primary signer 90, 60 and 30
days before the lease ends (in the window); an answer stops the rest; "I'm moving out" files a
notice-to-vacate escalation for staff."""
from __future__ import annotations

from datetime import UTC, datetime, timedelta

from desk.followups.answers import answer_followup
from desk.followups.engine import Step, run_due
from desk.followups.plans import plan_open_renewals
from spine.work import RenewalStatus
from tests.support.followup_helpers import row

# Marcus's lease (unit 204) ends 2027-01-31; 10:00 in Seattle is 18:00 UTC.
NOV_2, DEC_2, JAN_1 = (datetime(2026, 11, 2, 18, tzinfo=UTC), datetime(2026, 12, 2, 18, tzinfo=UTC),
                       datetime(2027, 1, 1, 18, tzinfo=UTC))


async def test_the_offer_goes_90_60_30_days_before_and_an_answer_stops_the_rest(spine):
    planned = await plan_open_renewals(spine, now=datetime(2026, 10, 1, tzinfo=UTC))
    mine = [n for n in planned if n.recipient_person_id == "p_marcus"]
    assert [n.not_before for n in mine] == [NOV_2, DEC_2, JAN_1]
    assert await plan_open_renewals(spine, now=datetime(2026, 10, 2, tzinfo=UTC)) == []  # once
    spine.clock = lambda: NOV_2
    assert Step.SENT in await run_due(spine, NOV_2)
    offer = await row(spine, "rw_yale_204_2027-offer-2026-11-02")
    assert "12 months at $2,525/mo" in offer.body and offer.recipient_person_id == "p_marcus"
    renewal = await spine.get_renewal("rw_yale_204_2027")
    await spine.put_renewal(renewal.model_copy(update={"status": RenewalStatus.ACCEPTED}))  # respond_to_renewal
    await run_due(spine, DEC_2)
    assert await row(spine, "rw_yale_204_2027-offer-2026-12-02") is None


async def test_moving_out_files_a_notice_to_vacate(spine):
    await plan_open_renewals(spine, now=datetime(2026, 10, 1, tzinfo=UTC))
    spine.clock = lambda: NOV_2
    await run_due(spine, NOV_2)
    answer = await answer_followup(spine, "p_marcus", "I'm moving out at the end of January",
                                   NOV_2 + timedelta(days=3))
    assert answer is not None and "notice to vacate" in answer.reply
    [escalation] = [e for e in await spine.escalation_queue(property_ids=["pf_yale"]) if e.reason == "notice_to_vacate"]
    assert escalation.person_id == "p_marcus"
    assert (await spine.get_renewal("rw_yale_204_2027")).status == RenewalStatus.DECLINED
    await run_due(spine, DEC_2)
    assert await row(spine, "rw_yale_204_2027-offer-2026-12-02") is None
