"""YES / NO by SMS from a vendor contact with a pending dispatch is answered before any agent turn
(POST /sms/twilio, in-process); from anyone else it is an ordinary message and the turn runs."""
from __future__ import annotations

import pytest

from desk.dispatch.dispatch import start_dispatch
from spine.dispatch_record import DispatchStatus
from spine.records import OptOut
from spine.work import WorkOrderStatus
from tests.support.gateway_helpers import ScriptedPool, text

MIKE, CARLOS = "+13035551500", "+13035552020"


async def dispatch(spine, wo_id: str, vendor_id: str) -> None:
    wo = await spine.get_work_order(wo_id)
    wo.assigned_vendor_id, wo.status = vendor_id, WorkOrderStatus.DISPATCHED
    await spine.put_work_order(wo)
    await start_dispatch(spine, wo, vendor_id, by_person_id="p_priya")


@pytest.mark.parametrize("word", ["YES", "yes", "Yes WO-7", "sí", "YES wo 7"])
async def test_yes_accepts_without_a_turn(make_gateway, spine, word):
    await dispatch(spine, "wo_7", "v_inhouse")
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    exchange = await text(client, word, from_=MIKE)
    assert pool.submitted == []  # no agent turn
    assert "WO-7 is yours" in " ".join(exchange.messages)
    assert (await spine.get_work_order("wo_7")).status == WorkOrderStatus.SCHEDULED
    assert [d.status for d in await spine.dispatches(DispatchStatus.ACCEPTED)] == ["accepted"]


async def test_no_passes_it_back_without_a_turn(make_gateway, spine):
    await dispatch(spine, "wo_42", "v_carlos")
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    exchange = await text(client, "NO", from_=CARLOS)
    assert pool.submitted == [] and "WO-42 goes back to the office" in " ".join(exchange.messages)
    assert (await spine.get_work_order("wo_42")).assigned_vendor_id is None


async def test_yes_from_anyone_else_or_without_a_dispatch_is_an_ordinary_message(make_gateway, spine):
    await dispatch(spine, "wo_7", "v_inhouse")
    pool = ScriptedPool()
    client, _ = await make_gateway(pool)
    await text(client, "yes")  # Marcus, a tenant: his "yes" answers Clara
    await text(client, "YES WO-42", from_=MIKE)  # not a dispatch Mike holds
    assert [e.body for e in pool.submitted] == ["yes", "YES WO-42"]
    assert await spine.dispatches(DispatchStatus.ACCEPTED) == []


async def test_an_opted_out_vendors_yes_opts_them_back_in_and_takes_nothing(make_gateway, spine):
    await dispatch(spine, "wo_7", "v_inhouse")
    await spine.set_opt_out(OptOut(address=MIKE, opted_out=True, keyword="STOP"))
    client, _ = await make_gateway(ScriptedPool())
    exchange = await text(client, "YES", from_=MIKE)
    assert "opted back in" in " ".join(exchange.messages)
    assert await spine.dispatches(DispatchStatus.ACCEPTED) == []
