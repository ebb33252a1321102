"""What a spoofed caller ID gets on the phone (issue 28, findings 5 and 6): the caller ID is not
identity, so until the call is verified no tool changes or completes an existing work order or reads
another party's notes, a new work order asks the team to confirm with the number on file first, and
the call's [CONTEXT] holds only what a tool free of verification could tell. In-process through the
real routes (no Ray)."""
from __future__ import annotations

import asyncio

import pytest

from actors.turn.call_opening import CONTEXT_TOLD_BY, withheld_until_verified
from gateway.twilio.signature import sign as twilio_sign
from gateway.voice.elevenlabs import AgentEndpoint
from prompts.voice import HIDDEN_POINTERS
from spine.context import ActivePointers, ActiveWorkOrder, PersonContext
from spine.identity import utcnow
from tests.support.elevenlabs_server import AgentServer, Close, standard_script
from tests.support.twilio_media_client import TwilioMediaClient
from tests.support.voice_helpers import (
    ACCOUNT,
    MARCUS,
    PUBLIC_URL,
    SECRET,
    VOICE_TOKEN,
    YALE_LINE,
    bridge_server,
    start_parameters,
    twilio_sid,
)
from tools.matrix import TOOL_ROLE_MATRIX

AUTH = {"Authorization": f"Bearer {VOICE_TOKEN}"}
MIKE = "+13035551500"


async def _personalize(client, caller: str, sid: str) -> dict:
    r = await client.post("/voice/personalization", headers=AUTH, json={
        "caller_id": caller, "agent_id": "agent", "called_number": YALE_LINE, "call_sid": sid})
    assert r.status_code == 200
    return r.json()


async def _tool(client, sid: str, name: str, **args) -> dict:
    r = await client.post(f"/voice/tools/{name}", headers=AUTH, json={**args, "interaction_id": f"voice-{sid}"})
    assert r.status_code == 200
    return r.json()


async def _stir_a(client, sid: str, caller: str) -> None:
    """Twilio's signed voice webhook with an A-level STIR/SHAKEN verdict: the call is verified."""
    form = {"CallSid": sid, "AccountSid": ACCOUNT, "From": caller, "To": YALE_LINE, "CallStatus": "ringing",
            "Direction": "inbound", "ApiVersion": "2010-04-01", "StirVerstat": "TN-Validation-Passed-A"}
    url = f"{PUBLIC_URL}/voice/twiml"
    r = await client.post(url, data=form, headers={"X-Twilio-Signature": twilio_sign(SECRET, url, form)})
    assert r.status_code == 200, r.text


# -- finding 6: work-order tools on an unverified call -------------------------------------------
@pytest.mark.parametrize("name, args", [
    ("update_work_order", {"work_order_id": "WO-7", "status": "completed"}),
    ("add_eta_note", {"work_order_id": "WO-7", "eta": "now", "note": "leave the door unlocked"}),
    ("accept_dispatch", {"work_order_id": "WO-7", "eta": "tonight"}),
])
async def test_from_mikes_number_unverified_no_work_order_changes(client, spine, name, args):
    sid = twilio_sid("CA", f"spoof-mike-{name}")
    await _personalize(client, MIKE, sid)
    before = await spine.get_work_order("wo_7")
    answer = await _tool(client, sid, name, **args)
    assert answer["is_error"] and "verified caller" in answer["result"]
    after = await spine.get_work_order("wo_7")
    assert (after.status, after.eta, after.notes) == (before.status, before.eta, before.notes)


async def test_from_mikes_number_a_verified_call_updates_the_work_order(client, spine):
    sid = twilio_sid("CA", "real-mike")
    await _stir_a(client, sid, MIKE)
    await _personalize(client, MIKE, sid)
    answer = await _tool(client, sid, "update_work_order", work_order_id="WO-7", status="completed")
    assert answer["is_error"] is False
    assert (await spine.get_work_order("wo_7")).status == "completed"


async def test_from_marcuss_number_unverified_no_notes_or_vendor_of_a_work_order(client):
    sid = twilio_sid("CA", "spoof-marcus-read")
    await _personalize(client, MARCUS, sid)
    answer = await _tool(client, sid, "get_work_order_detail", work_order_id="WO-7")
    assert answer["is_error"] and "verified caller" in answer["result"]
    assert "Mike" not in answer["result"] and "In-house" not in answer["result"]


async def test_from_marcuss_number_unverified_a_work_order_waits_for_a_callback(client, spine):
    sid = twilio_sid("CA", "spoof-marcus-file")
    await _personalize(client, MARCUS, sid)
    wo7_before = await spine.get_work_order("wo_7")
    answer = await _tool(client, sid, "create_work_order", description="Toilet running, send someone to open the "
                         "door", brief="running toilet", access_notes="leave the door unlocked")
    assert answer["is_error"] is False and "ending 1001" in answer["result"]
    [filed] = [wo for wo in await spine.work_orders_at("pf_yale") if "open the door" in wo.description]
    assert filed.display_id != "WO-7" and filed.confirm_by_callback == MARCUS
    assert any("not verified" in n.text and "1001" in n.text for n in filed.notes)
    assert any("do not act on it" in n.text for n in filed.notes if "door unlocked" in n.text)
    # The open WO-7 of the same unit is neither changed nor shown to the caller.
    assert (await spine.get_work_order("wo_7")).notes == wo7_before.notes and "WO-7" not in answer["result"]


async def test_a_verified_tenant_files_without_a_callback(client, spine):
    sid = twilio_sid("CA", "real-marcus-file")
    await _stir_a(client, sid, MARCUS)
    await _personalize(client, MARCUS, sid)
    answer = await _tool(client, sid, "create_work_order", description="Dishwasher leaks onto the floor")
    assert answer["is_error"] is False
    [filed] = [wo for wo in await spine.work_orders_at("pf_yale") if "Dishwasher" in wo.description]
    assert filed.confirm_by_callback is None


def test_the_verified_caller_column_decides_each_work_order_tool():
    """The decision of finding 6, per tool: only a new report may act before the call is verified."""
    column = {name: TOOL_ROLE_MATRIX[name].verified_caller for name in (
        "create_work_order", "get_work_order_detail", "submit_rating", "accept_dispatch", "update_work_order",
        "add_eta_note", "get_dispatch_details", "handoff_to_other_vendor")}
    assert [name for name, verified in column.items() if not verified] == ["create_work_order"]


# -- finding 5: the [CONTEXT] of an unverified call ----------------------------------------------
SECRETS = ("balance of $1,240", "lease ends 2031-08-31", "WO-7", "running toilet", "Marcus", "p_marcus", "rw_yale_204_2027")


@pytest.fixture
async def marcus_context(spine):
    """What Marcus's personContext holds after earlier conversations: money, the lease, a work order."""
    await spine.put_context(PersonContext(
        person_id="p_marcus", refreshed_at=utcnow(),
        summary="Marcus asked about his balance of $1,240 and said his lease ends 2031-08-31.",
        active=ActivePointers(active_work_orders=[ActiveWorkOrder(id="wo_7", display_id="WO-7",
                                                                  status="in_progress", brief="running toilet")],
                              active_renewal_workflow_id="rw_yale_204_2027")))


def _spoken(payload: dict) -> str:
    agent = payload["conversation_config_override"]["agent"]
    return "\n".join([agent["prompt"]["prompt"], agent["first_message"], repr(payload["dynamic_variables"])])


async def test_an_unverified_call_gets_no_balance_lease_work_orders_or_name(client, marcus_context):
    payload = await _personalize(client, MARCUS, twilio_sid("CA", "ctx-spoof"))
    spoken = _spoken(payload)
    assert [s for s in SECRETS if s in spoken] == []
    variables = payload["dynamic_variables"]
    assert (variables["caller_known"], variables["open_work_orders"], variables["roles"]) == (False, 0, "tenant")
    assert payload["conversation_config_override"]["agent"]["first_message"].startswith("Hi, this is Clara")
    assert "Open work orders: withheld until the caller is verified" in spoken and "send_verification_code" in spoken
    assert "/ Unit 204" in spoken  # the unit is what get_unit_appliances tells any caller of the number


async def _bridged_start(calls, sid: str, parameters: dict) -> dict:
    async with AgentServer(standard_script(Close())) as agent, \
            bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=sid) as media:
            await media.start(parameters)
            convo = await asyncio.wait_for(agent.wait_conversation(), 5)
            await bridge.wait_done()
    return convo.received[0]


async def test_a_stir_a_call_gets_the_whole_context(calls, marcus_context):
    first = await _bridged_start(calls, "CA_ctx_verified", start_parameters("CA_ctx_verified", MARCUS, verified=True))
    spoken = _spoken(first)
    assert [s for s in SECRETS if s not in spoken] == []
    assert first["conversation_config_override"]["agent"]["first_message"].startswith("Hi Marcus")
    assert "withheld" not in spoken


async def test_an_unverified_bridged_call_is_withheld_and_the_flag_cannot_be_forged(calls, marcus_context):
    unverified = await _bridged_start(calls, "CA_ctx_plain", start_parameters("CA_ctx_plain", MARCUS))
    assert [s for s in SECRETS if s in _spoken(unverified)] == []
    forged = {**start_parameters("CA_ctx_forged", MARCUS), "verified": "1"}  # the token signed "0"
    async with AgentServer(standard_script(Close())) as agent, \
            bridge_server(calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid="CA_ctx_forged") as media:
            await media.start(forged)
            assert await bridge.wait_done() == "refused_unsigned_start"
    assert agent.conversations == []


def test_what_an_unverified_call_is_told_follows_the_verified_caller_column():
    """One rule: a part of [CONTEXT] is shown unverified only when the tool that tells it is free of
    verification in the matrix; a part no tool tells (or a new pointer nobody mapped) is withheld."""
    parts = {"caller", "units", "summary", *ActivePointers.model_fields} - HIDDEN_POINTERS
    assert set(CONTEXT_TOLD_BY) == parts
    for part, tool in CONTEXT_TOLD_BY.items():
        free = tool is not None and not TOOL_ROLE_MATRIX[tool].verified_caller
        assert (part in withheld_until_verified()) is not free, part
    assert withheld_until_verified() == parts - {"units"}
