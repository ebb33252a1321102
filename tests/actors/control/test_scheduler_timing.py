"""The ladder's own timing, without Ray (Ladders is the tick): level 2's timeout runs from level 1's
step; the tick that finds it due sends its text and call itself; the scheduler sleeps no longer
than until the next step is due (so a tick's phase adds nothing to the ack timeout)."""
from __future__ import annotations

from datetime import timedelta

import httpx

from actors.control.scheduler import TICK_S, Ladders, pause_s
from desk.oncall.paging import PageRequest, start_page
from gateway.outbox_sender import OutboxSender
from spine.identity import utcnow
from spine.oncall import OnCallPlan
from tests.support.gateway_helpers import settings_for

PRIYA = "+12065550150"


async def test_level_two_leaves_in_the_tick_its_timeout_ends_and_the_scheduler_wakes_for_it(spine, twilio):
    await spine.put_oncall_plan(OnCallPlan(property_id="pf_yale", levels=[["p_mike"], ["p_priya"]], ack_timeout_s=5))
    t0 = utcnow()
    await start_page(spine, PageRequest(page_id="pg_timing", property_id="pf_yale", reason="gas smell"), now=t0)
    async with httpx.AsyncClient() as http:
        ladders = Ladders(spine, OutboxSender(spine, settings_for(spine, twilio), http))
        await ladders.tick(t0 + timedelta(seconds=1))
        assert ladders.next_due == t0 + timedelta(seconds=5)  # from level 1's step, not from this tick
        await ladders.tick(t0 + timedelta(seconds=4.99))
        assert not [s for s in twilio.accepted() if s.to == PRIYA] and not [c for c in twilio.calls if c.to == PRIYA]
        await ladders.tick(t0 + timedelta(seconds=5))  # one tick: the step and its sends
        assert len([s for s in twilio.accepted() if s.to == PRIYA]) == 1
        assert [c.to for c in twilio.calls].count(PRIYA) == 1
        await ladders.tick(t0 + timedelta(seconds=5.5))
        assert ladders.next_due == t0 + timedelta(seconds=10)  # the second pass: from level 2's step


def test_the_scheduler_sleeps_until_the_next_step_when_it_comes_before_the_next_tick():
    now = utcnow()
    assert pause_s(TICK_S, 0.1, None, now) == TICK_S - 0.1
    assert pause_s(TICK_S, 0.1, now + timedelta(seconds=0.15), now) == 0.15
    assert pause_s(TICK_S, 0.1, now - timedelta(seconds=1), now) == 0.0  # overdue: tick again at once
    assert pause_s(TICK_S, 0.1, now + timedelta(seconds=30), now) == TICK_S - 0.1
