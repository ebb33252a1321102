"""The step-up code's text goes through the one outbound check and the outbox: an SMS opt-out
refuses it (an email unsubscribe does not), the row keeps the code masked, and the outbox sender
never sends it (only the call's gateway holds the code)."""
from __future__ import annotations

from desk.outbound.may_send import may_still_send
from spine.context import Channel
from spine.records import OptOut, OutboxStatus
from spine.toolspec import ToolInvocation
from tools.caller import load_caller
from tools.dispatch import dispatch

MARCUS = "+12065551001"


async def send_code(spine, interaction_id: str = "ix_call_1"):
    caller = await load_caller(spine, "p_marcus", "pf_yale", interaction_id, Channel.VOICE)
    return await dispatch(spine, ToolInvocation(name="send_verification_code", tool_use_id="t1"), caller)


async def test_the_code_is_queued_masked_and_handed_to_the_gateway_alone(spine):
    result = await send_code(spine)
    assert not result.is_error, result.content
    [text] = result.texts
    [row] = await spine.outbox(OutboxStatus.PENDING)
    assert row.id == text.key and row.to_address == MARCUS == text.to and row.from_address == text.from_
    code = text.body.split("code is ")[1][:6]
    assert code not in row.body and row.body == text.logged_body and f"••••{code[-2:]}" in row.body
    assert await may_still_send(spine, row) is not None  # the outbox sender leaves it alone


async def test_an_sms_opt_out_refuses_the_code_and_an_email_unsubscribe_does_not(spine):
    await spine.set_opt_out(OptOut(address="marcus@example.com", opted_out=True, keyword="unsubscribe",
                                   channel=Channel.EMAIL))
    assert not (await send_code(spine, "ix_call_email")).is_error
    await spine.set_opt_out(OptOut(address=MARCUS, opted_out=True, keyword="STOP", channel=Channel.SMS))
    refused = await send_code(spine, "ix_call_sms")
    assert refused.is_error and "opted out of sms" in refused.content and refused.texts == []
