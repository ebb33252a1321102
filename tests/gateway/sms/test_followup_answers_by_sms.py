"""A close-out's answer by SMS is taken before any turn ("5 thanks" rates, "still leaking"
reopens), traced as a keyword answer is; any other message still reaches Clara."""
from __future__ import annotations

from datetime import timedelta

from desk.dispatch.notices import notify_work_order_change
from desk.followups.engine import run_due
from spine.identity import utcnow
from spine.work import WorkOrderStatus
from tests.support.gateway_helpers import ScriptedPool, text


async def _asked(spine):
    now = (utcnow() + timedelta(days=1)).replace(hour=17, minute=0)  # 09:00 or 10:00 in Seattle, tomorrow
    spine.clock = lambda: now
    wo = await spine.get_work_order("wo_7")
    wo.status = WorkOrderStatus.COMPLETED
    await spine.put_work_order(wo)
    await notify_work_order_change(spine, wo, changed_by="p_mike")
    due = now + timedelta(hours=2)
    spine.clock = lambda: due
    await run_due(spine, due)


async def test_a_rating_by_sms_is_recorded_without_a_turn(make_gateway, spine):
    await _asked(spine)
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    reply = await text(client, "5 thanks")
    assert reply.messages == ["Rated WO-7 5/5. Thank you!"] and pool.submitted == []
    assert (await spine.get_work_order("wo_7")).rating == 5
    trace = await spine.get_trace(reply.interaction_id)
    assert trace is not None and trace.reply == "Rated WO-7 5/5. Thank you!"


async def test_still_leaking_by_sms_reopens_and_other_messages_reach_clara(make_gateway, spine):
    await _asked(spine)
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    assert (await text(client, "what time is the pool open?")).messages == ["echo: what time is the pool open?"]
    reply = await text(client, "still leaking")
    assert "reopened WO-7" in reply.messages[0]
    assert (await spine.get_work_order("wo_7")).status == WorkOrderStatus.OPEN
