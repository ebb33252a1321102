"""Caller identity on voice: the caller ID is not identity. Tools with staff authority or that reveal
or change money, the lease or another person's data run only for a verified call: Twilio's
STIR/SHAKEN `TN-Validation-Passed-A`, or the step-up code texted to the number on file. In-process,
without Ray: the Twilio voice webhook, server tools and the bridge through the real routes."""
from __future__ import annotations

import logging
import re
from datetime import timedelta

import pytest

from gateway.twilio.signature import sign as twilio_sign
from gateway.voice.elevenlabs import AgentEndpoint
from spine.identity import utcnow
from spine.records import OutboxStatus
from tests.support.elevenlabs_server import AgentServer, Close, Expect, Send, standard_script, tool_call
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

AUTH = {"Authorization": f"Bearer {VOICE_TOKEN}"}
PRIYA = "+12065550150"


@pytest.fixture
def services(twilio_services):
    return twilio_services  # this module's calls reach the Twilio stand-in


async def _personalize(client, caller: str, sid: str) -> str:
    r = await client.post("/voice/personalization", headers=AUTH, json={
        "caller_id": caller, "agent_id": "agent", "called_number": YALE_LINE, "call_sid": sid})
    assert r.status_code == 200
    return f"voice-{sid}"


async def _tool(client, iid: str, name: str, **args) -> dict:
    r = await client.post(f"/voice/tools/{name}", headers=AUTH, json={**args, "interaction_id": iid})
    assert r.status_code == 200
    return r.json()


async def _voice_webhook(client, sid: str, caller: str, verstat: str | None) -> None:
    form = {"CallSid": sid, "AccountSid": ACCOUNT, "From": caller, "To": YALE_LINE, "CallStatus": "ringing",
            "Direction": "inbound", "ApiVersion": "2010-04-01"}
    if verstat:
        form["StirVerstat"] = verstat
    url = f"{PUBLIC_URL}/voice/twiml"
    r = await client.post(url, data=form, headers={"X-Twilio-Signature": twilio_sign(SECRET, url, form)})
    assert r.status_code == 200, r.text


async def _bridged_tools(services, sid: str, caller: str, calls: list[tuple[str, dict]]) -> list[dict]:
    """A bridged call whose agent calls `calls` in order; the client_tool_results it got."""
    script = [*(step for i, (name, args) in enumerate(calls) for step in
                (Send(tool_call(name, args, f"tc_{i}")), Expect("client_tool_result", i + 1))), Close()]
    async with AgentServer(standard_script(*script)) as agent, \
            bridge_server(services.calls, AgentEndpoint(ws_url=agent.url)) as bridge:
        async with TwilioMediaClient(bridge.url, call_sid=sid) as media:
            await media.start(start_parameters(sid, caller))
            convo = await agent.wait_conversation()
            await bridge.wait_done()
    return convo.of("client_tool_result")


async def test_a_spoofed_pm_number_failing_stir_gets_no_staff_authority(client, services, spine):
    sid = twilio_sid("CA", "spoofed-pm")
    await _voice_webhook(client, sid, PRIYA, "TN-Validation-Failed-C")
    lookup, close = await _bridged_tools(services, sid, PRIYA, [
        ("pm_lookup_person", {"name": "Marcus"}), ("pm_close_work_order", {"work_order_id": "WO-7"})])
    assert lookup["is_error"] and "verified caller" in lookup["result"] and "Marcus" not in lookup["result"]
    assert close["is_error"] and "verification" in close["result"]
    assert (await spine.get_work_order("wo_7")).status != "closed"
    trace = await spine.get_trace(f"voice-{sid}")
    assert [c.reason.split(":")[0] for c in trace.tool_calls] == ["verification", "verification"]


async def test_a_stir_a_call_uses_staff_tools(client, services):
    sid = twilio_sid("CA", "verified-pm")
    await _voice_webhook(client, sid, PRIYA, "TN-Validation-Passed-A")
    [listed] = await _bridged_tools(services, sid, PRIYA, [("pm_list_open_work_orders", {})])
    assert listed["is_error"] is False and "WO-7" in listed["result"]


@pytest.mark.parametrize("verstat", ["TN-Validation-Passed-B", "TN-Validation-Passed-C", "No-TN-Validation", None])
async def test_only_a_level_attestation_verifies(client, services, verstat):
    sid = twilio_sid("CA", f"verstat-{verstat}")
    await _voice_webhook(client, sid, MARCUS, verstat)
    [balance] = await _bridged_tools(services, sid, MARCUS, [("get_balance", {})])
    assert balance["is_error"] and "verified caller" in balance["result"]


async def test_an_elevenlabs_native_tenant_steps_up_then_hears_the_balance(client, spine, twilio, caplog):
    iid = await _personalize(client, MARCUS, "CA_native_stepup")
    for name in ("get_balance", "get_lease_details"):
        refused = await _tool(client, iid, name)
        assert refused["is_error"] and "send_verification_code" in refused["result"]
    with caplog.at_level(logging.DEBUG):
        sent = await _tool(client, iid, "send_verification_code")
        assert sent["is_error"] is False and "1001" in sent["result"]
        [text] = twilio.accepted()
        assert text.to == MARCUS and text.form["From"] == YALE_LINE
        code = re.search(r"\b(\d{6})\b", text.body).group(1)
        wrong = await _tool(client, iid, "check_verification_code", code=f"{(int(code) + 1) % 10**6:06d}")
        assert wrong["is_error"] and "2 tries left" in wrong["result"]
        ok = await _tool(client, iid, "check_verification_code", code=code)
        assert ok["is_error"] is False and "verified as Marcus Johnson" in ok["result"]
        balance = await _tool(client, iid, "get_balance")
    assert balance["is_error"] is False and "balance" in balance["result"]
    # The code is never kept or logged in full: not in the trace, the outbox or any log line.
    trace = await spine.get_trace(iid)
    assert code not in trace.model_dump_json()
    assert [c.input for c in trace.tool_calls if c.name == "check_verification_code"][-1]["code"].endswith(code[-2:])
    [row] = [r for r in await spine.outbox(OutboxStatus.SENT) if r.id.startswith("stepup-")]
    assert code not in row.body and f"••••{code[-2:]}" in row.body
    assert not [r for r in caplog.records if code in r.getMessage()]
    assert (await spine.get_call_verification(iid)).method == "step_up"


async def test_a_code_allows_three_tries_then_is_gone(client, twilio):
    iid = await _personalize(client, MARCUS, "CA_tries")
    await _tool(client, iid, "send_verification_code")
    code = re.search(r"\b(\d{6})\b", twilio.accepted()[-1].body).group(1)
    wrong = f"{(int(code) + 1) % 10**6:06d}"
    answers = [await _tool(client, iid, "check_verification_code", code=wrong + " " * n) for n in range(3)]
    assert "no tries are left" in answers[-1]["result"]
    late = await _tool(client, iid, "check_verification_code", code=code)
    assert late["is_error"] and "no tries are left on this call" in late["result"]
    assert (await _tool(client, iid, "get_balance"))["is_error"]


async def test_an_expired_code_does_not_verify(client, spine, twilio):
    iid = await _personalize(client, MARCUS, "CA_expired")
    await _tool(client, iid, "send_verification_code")
    code = re.search(r"\b(\d{6})\b", twilio.accepted()[-1].body).group(1)
    challenge, _ = await spine.get_step_up("p_marcus")
    past = utcnow() - timedelta(seconds=1)
    await spine.put_step_up(challenge.model_copy(update={"codes": [
        c.model_copy(update={"expires_at": past}) for c in challenge.codes]}))
    late = await _tool(client, iid, "check_verification_code", code=code)
    assert late["is_error"] and "no longer valid" in late["result"]
    assert (await _tool(client, iid, "get_balance"))["is_error"]


async def test_codes_are_rate_limited_per_person_across_calls(client, twilio):
    answers = []
    for n in range(4):
        iid = await _personalize(client, MARCUS, f"CA_rate_{n}")
        answers.append(await _tool(client, iid, "send_verification_code"))
    assert [a["is_error"] for a in answers] == [False, False, False, False]
    # The fourth sends nothing: the codes already texted to the number on file are still valid.
    assert "No new code" in answers[-1]["result"] and len(twilio.accepted()) == 3


async def test_a_code_is_not_sent_for_a_stranger_and_not_off_the_phone(client, spine):
    iid = await _personalize(client, "+14155559876", "CA_stranger")
    stranger = await _tool(client, iid, "send_verification_code")
    assert stranger["is_error"] and "no account" in stranger["result"]
    from spine.toolspec import ToolInvocation
    from tools.caller import load_caller
    from tools.dispatch import dispatch

    sms_caller = await load_caller(spine, "p_marcus", "pf_yale", "ix_sms_1")
    result = await dispatch(spine, ToolInvocation(name="send_verification_code", tool_use_id="t1"), sms_caller)
    assert result.is_error and "only for phone calls" in result.content and result.texts == []


async def test_a_verification_is_bound_to_its_call_and_person(client, twilio):
    iid = await _personalize(client, MARCUS, "CA_bound_1")
    await _tool(client, iid, "send_verification_code")
    code = re.search(r"\b(\d{6})\b", twilio.accepted()[-1].body).group(1)
    spoken = f"{code[:3]} {code[3:]}"  # as a caller reads it out
    assert (await _tool(client, iid, "check_verification_code", code=spoken))["is_error"] is False
    other = await _personalize(client, MARCUS, "CA_bound_2")
    assert (await _tool(client, other, "get_balance"))["is_error"]  # a new call starts unverified
