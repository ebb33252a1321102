"""The SMS gateway in a real (private) Ray: Serve over real HTTP on a free port, PersonActor hosts,
the DispatcherActor, the offline model, the Twilio REST stand-in (the session's shared gateway
application). K-1..K-5 end to end, signatures, MessageSid deduplication, opt-out."""
from __future__ import annotations

import asyncio

import httpx
import pytest

from gateway.channel_inbound import APOLOGY
from gateway.cli.sms import new_message_sid, send_sms
from gateway.twilio.signature import sign
from tests.support.serve_helpers import SHARED_ACCOUNT_SID, SHARED_ADMIN_TOKEN, SHARED_AUTH_TOKEN

pytestmark = pytest.mark.ray

AUTH_TOKEN, ACCOUNT_SID, ADMIN_TOKEN = SHARED_AUTH_TOKEN, SHARED_ACCOUNT_SID, SHARED_ADMIN_TOKEN
YALE = "+12065550100"


@pytest.fixture
async def http(serve_gateway):
    async with httpx.AsyncClient(base_url=serve_gateway.url, timeout=30.0) as client:
        yield client


@pytest.fixture
async def spine(serve_gateway):
    s = serve_gateway.spine()
    yield s
    await s.store.close()


@pytest.fixture
def twilio(serve_gateway):
    return serve_gateway.twilio


async def text(http, from_: str, body: str, **kw):
    # The gateway refuses a form whose AccountSid is not its TWILIO_ACCOUNT_SID (a re-cut or foreign one).
    return await send_sms(http, base_url=str(http.base_url), auth_token=AUTH_TOKEN, from_=from_, body=body,
                          **{"account_sid": ACCOUNT_SID, **kw})


async def trace_of(http, interaction_id: str) -> dict:
    response = await http.get(f"/admin/traces/{interaction_id}", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    assert response.status_code == 200, response.text
    return response.json()


async def trace_ids(http, **params) -> list[str]:
    response = await http.get("/admin/traces", params={"limit": 500, **params},
                              headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    return [t["interaction_id"] for t in response.json()["traces"]]


def called(trace: dict, *names: str) -> bool:
    return any(c["name"] in names and c["decision"] == "allowed" for c in trace["tool_calls"])


async def test_healthz(http):
    response = await http.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_k1_tenant_texts_maintenance(http, spine):
    reply = await text(http, "+12065551001", "my toilet is overflowing!")
    assert reply.status_code == 200 and len(reply.messages) == 1
    assert "WO-" in reply.messages[0], await spine.get_inbound(reply.message_sid)
    trace = await trace_of(http, reply.interaction_id)
    assert trace["participant_id"] == "p_marcus" and trace["routing"]["roles"] == ["tenant"]
    assert "create_work_order" in trace["tools_offered"] and called(trace, "create_work_order")
    assert trace["reply"] == reply.messages[0] and trace["wire_address_last4"] == "1001"


async def test_k2_vendor_eta_sent_as_sms(http, spine):
    reply = await text(http, "+13035551500", "I'm 10 min out from WO-7")
    trace = await trace_of(http, reply.interaction_id)
    assert trace["participant_id"] == "p_mike" and trace["routing"]["roles"] == ["vendor"]
    assert called(trace, "add_eta_note", "update_work_order") and reply.messages
    wo = await spine.get_work_order("wo_7")
    assert any("10 min" in n.text for n in wo.notes) or (wo.eta and "10 min" in wo.eta)


async def test_k3_unknown_prospect_is_minted(http):
    reply = await text(http, "+14155559876", "do you have 2BR units next month?")
    trace = await trace_of(http, reply.interaction_id)
    assert trace["routing"]["roles"] == ["prospect"] and trace["routing"]["confidence"] == "inferred"
    assert trace["participant_id"] and called(trace, "get_available_units")
    assert "401" in reply.messages[0] or "415" in reply.messages[0]


async def test_k4_multi_role_caller_gets_both_catalogs(http):
    reply = await text(http, "+13035552020", "check on WO-42")
    trace = await trace_of(http, reply.interaction_id)
    assert sorted(trace["routing"]["roles"]) == ["tenant", "vendor"]
    assert {"create_work_order", "update_work_order", "get_dispatch_details"} <= set(trace["tools_offered"])
    assert called(trace, "get_dispatch_details") and "WO-42" in reply.messages[0]


async def test_k5_wrong_number(http):
    reply = await text(http, "+13105557777", "yo what's up Trevor")
    trace = await trace_of(http, reply.interaction_id)
    assert trace["participant_id"] is None and trace["routing"]["roles"] == ["other"]
    assert trace["tool_calls"] == [] and "wrong number" in reply.messages[0].lower()


@pytest.mark.parametrize("signature", [None, "forged"])
async def test_forged_or_missing_signature_is_403_and_leaves_no_trace(http, spine, signature):
    before = await trace_ids(http)
    sid = new_message_sid()
    form = {"MessageSid": sid, "From": "+12065551002", "To": "+12065550100", "Body": "the dishwasher is leaking"}
    headers = {"X-Twilio-Signature": sign("not-the-token", str(http.base_url) + "/sms/twilio", form)} \
        if signature else {}
    response = await http.post("/sms/twilio", data=form, headers=headers)
    assert response.status_code == 403
    assert await trace_ids(http) == before and await spine.get_inbound(sid) is None


async def test_a_duplicate_message_sid_runs_one_turn(http):
    sid = new_message_sid()
    first, second = await asyncio.gather(text(http, "+12065551002", "the dishwasher is leaking", message_sid=sid),
                                         text(http, "+12065551002", "the dishwasher is leaking", message_sid=sid))
    third = await text(http, "+12065551002", "the dishwasher is leaking", message_sid=sid)
    assert first.messages and first.messages == second.messages == third.messages
    assert len(await trace_ids(http, participant_id="p_jordan")) == 1


async def test_stop_then_a_message_sends_nothing(http, spine, twilio):
    assert (await text(http, "+12065551003", "STOP")).messages == []
    after = await text(http, "+12065551003", "is my renewal ready?")
    assert after.status_code == 200 and after.messages == [] and after.interaction_id is None
    assert await trace_ids(http, participant_id="p_ellen") == []
    assert [s for s in twilio.sent if s.to == "+12065551003"] == []
    back = await text(http, "+12065551003", "START")
    assert back.messages and "opted back in" in back.messages[0]


async def test_admin_lists_the_active_person_actors(http):
    await text(http, "+12065551001", "thanks!")
    response = await http.get("/admin/actors", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    actors = response.json()["actors"]
    marcus = [a for a in actors if a["person_id"] == "p_marcus"]
    assert marcus and "clara-host-" in marcus[0]["host"] and marcus[0]["turns"] >= 1
    assert (await http.get("/admin/actors")).status_code == 401


async def test_a_replica_sweeps_an_inbound_a_dead_replica_left_accepted(http, spine, twilio):
    from datetime import timedelta

    from spine.context import Channel
    from spine.identity import utcnow
    from spine.records import InboundMessage, InboundStatus

    sid, sender = new_message_sid(), "+12065558811"
    await spine.accept_inbound(InboundMessage(id=sid, channel=Channel.SMS, from_address=sender, to_address=YALE,
                                              body="hello?", received_at=utcnow() - timedelta(minutes=5)))
    for _ in range(100):
        if (await spine.get_inbound(sid)).status == InboundStatus.FAILED and any(s.to == sender for s in twilio.sent):
            break
        await asyncio.sleep(0.1)
    assert (await spine.get_inbound(sid)).failure.startswith("abandoned")
    assert [s.form["Body"] for s in twilio.sent if s.to == sender] == [APOLOGY]
