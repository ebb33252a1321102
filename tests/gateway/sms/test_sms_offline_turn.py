"""The webhook over the real agent turn (router, tools, offline model), without Ray."""
from __future__ import annotations

from gateway.cli.sms import send_sms
from spine.records import EventKind, InboundStatus
from tests.support.gateway_helpers import ACCOUNT_SID, AUTH_TOKEN, PUBLIC_URL, OfflinePool


async def text(client, from_: str, body: str):
    return await send_sms(client, base_url=PUBLIC_URL, auth_token=AUTH_TOKEN, from_=from_, body=body,
                          account_sid=ACCOUNT_SID)


async def test_k1_through_the_webhook_opens_a_work_order(make_gateway, spine):
    client, _ = await make_gateway(OfflinePool(spine))
    reply = await text(client, "+12065551001", "my toilet is overflowing!")
    assert len(reply.messages) == 1 and "WO-" in reply.messages[0]
    trace = await spine.get_trace(reply.interaction_id)
    assert trace.participant_id == "p_marcus" and trace.routing.roles == ["tenant"]
    assert any(c.name == "create_work_order" and c.decision == "allowed" for c in trace.tool_calls)


async def test_a_spam_sender_gets_an_empty_answer_and_an_event(make_gateway, spine, twilio):
    client, _ = await make_gateway(OfflinePool(spine))
    reply = await text(client, "+18885550199", "WIN A FREE CRUISE reply YES")
    assert reply.status_code == 200 and reply.messages == [] and twilio.sent == []
    assert (await spine.get_inbound(reply.message_sid)).status == InboundStatus.BLOCKED
    [event] = await spine.events(EventKind.SPAM_DROPPED)
    assert event.phone_last4 == "0199" and event.interaction_id == reply.interaction_id
