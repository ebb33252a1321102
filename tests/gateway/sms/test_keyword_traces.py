"""An SMS keyword answered without a turn (ACK, YES, NO) leaves a trace like a turn's: the admin
API shows it, its reply, who sent it and, in `notifications`, what it queued for other people."""
from __future__ import annotations

from desk.dispatch.dispatch import start_dispatch
from spine.work import WorkOrderStatus
from tests.support.admin_helpers import AUTH
from tests.support.gateway_helpers import OfflinePool, ScriptedPool, text

MIKE, CARLOS = "+13035551500", "+13035552020"


async def dispatch(spine, wo_id: str, vendor_id: str) -> None:
    wo = await spine.get_work_order(wo_id)
    wo.assigned_vendor_id, wo.status = vendor_id, WorkOrderStatus.DISPATCHED
    await spine.put_work_order(wo)
    await start_dispatch(spine, wo, vendor_id, by_person_id="p_priya")


async def _trace(client, interaction_id: str | None) -> dict:
    assert interaction_id is not None, "a keyword answered without a turn names no interaction"
    response = await client.get(f"/admin/traces/{interaction_id}", headers=AUTH)
    assert response.status_code == 200, response.text
    return response.json()


async def test_an_ack_by_text_is_traced_with_the_reporters_notice(make_gateway, spine):
    client, context = await make_gateway(OfflinePool(spine), with_twilio=False)
    await text(client, "I smell gas in my kitchen")
    turns = len(context.pool.submitted)
    ack = await text(client, "ACK", from_=MIKE)
    assert len(context.pool.submitted) == turns  # still no agent turn
    trace = await _trace(client, ack.interaction_id)
    assert (trace["participant_id"], trace["channel"], trace["inbound"]) == ("p_mike", "sms", "ACK")
    assert trace["answered_by"] == "keyword" and not trace["tool_calls"] and not trace["model"]
    assert trace["reply"] == ack.messages[0] and trace["reply"].startswith("You have the page")
    assert [(e["kind"], e["reason"]) for e in trace["events"]] == [("oncall/acknowledged", "sms")]
    assert [(n["kind"], n["recipient_person_id"], n["status"]) for n in trace["notifications"]] == [
        ("notify", "p_marcus", "queued")]
    assert trace["wire_address_last4"] == MIKE[-4:] and trace["routing"]["roles"] == ["vendor"]
    listed = (await client.get("/admin/traces?participant_id=p_mike", headers=AUTH)).json()["traces"]
    assert ack.interaction_id in [t["interaction_id"] for t in listed]


async def test_yes_and_no_to_a_dispatch_are_traced(make_gateway, spine):
    await dispatch(spine, "wo_7", "v_inhouse")
    await dispatch(spine, "wo_42", "v_carlos")
    client, _ = await make_gateway(ScriptedPool())
    yes = await text(client, "YES", from_=MIKE)
    trace = await _trace(client, yes.interaction_id)
    assert trace["participant_id"] == "p_mike" and "WO-7 is yours" in trace["reply"]
    assert [e["kind"] for e in trace["events"]] == ["dispatch/accepted"] and trace["property_id"] == "pf_yale"
    assert {n["recipient_person_id"] for n in trace["notifications"]} == {"p_marcus"}  # the tenant is told
    no = await text(client, "NO", from_=CARLOS)
    trace = await _trace(client, no.interaction_id)
    assert [e["kind"] for e in trace["events"]] == ["dispatch/declined"] and "goes back" in trace["reply"]
    assert trace["notifications"] and {n["kind"] for n in trace["notifications"]} == {"staff"}  # managers told
