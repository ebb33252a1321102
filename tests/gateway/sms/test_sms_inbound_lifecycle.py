"""The inbound record's one lifecycle (accepted -> answered | blocked | failed) and the one send
check every sending path makes, over HTTP in-process with the Twilio REST stand-in; no Ray."""
from __future__ import annotations

import asyncio

import pytest

from gateway.channel_inbound import APOLOGY
from spine.records import InboundStatus
from tests.support.gateway_helpers import MARCUS, ScriptedPool, text


class GatedPool(ScriptedPool):
    """A turn that waits until the test lets it finish (so a STOP can arrive during it)."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.release = asyncio.Event(), asyncio.Event()

    async def submit(self, envelope):
        self.started.set()
        await self.release.wait()
        return await super().submit(envelope)


async def test_stop_during_a_turn_then_a_redelivery_sends_nothing(make_gateway, spine, twilio):
    pool = GatedPool()
    client, context = await make_gateway(pool)
    first = asyncio.create_task(text(client, "is the pool open?", sid="SM" + "a" * 32))
    await pool.started.wait()
    stop = await text(client, "STOP")
    pool.release.set()
    answered = await first
    assert stop.messages == [] and answered.messages == []  # the turn's reply is not sent inline
    record = await spine.get_inbound("SM" + "a" * 32)
    assert (record.status, record.reply) == (InboundStatus.BLOCKED, "echo: is the pool open?")
    redelivered = await text(client, "is the pool open?", sid="SM" + "a" * 32)  # Twilio retries the webhook
    assert redelivered.messages == [] and len(pool.submitted) == 1
    await context.sms.drain()
    assert twilio.sent == []


async def test_a_stop_after_the_answer_blocks_the_redelivery_replay(make_gateway, spine, twilio):
    client, _ = await make_gateway(ScriptedPool())
    first = await text(client, "hello", sid="SM" + "b" * 32)
    assert first.messages == ["echo: hello"]
    await text(client, "STOP")
    again = await text(client, "hello", sid="SM" + "b" * 32)
    assert again.messages == [] and (await spine.get_inbound("SM" + "b" * 32)).status == InboundStatus.ANSWERED


async def test_a_failed_turn_apologises_only_if_it_may(make_gateway, spine):
    client, _ = await make_gateway(ScriptedPool(error=RuntimeError("boom")))
    failed = await text(client, "hello")
    assert failed.messages == [APOLOGY]
    record = await spine.get_inbound(failed.message_sid)
    assert record.status == InboundStatus.FAILED and "boom" in record.failure
    await text(client, "STOP")
    assert (await text(client, "hello", sid=failed.message_sid)).messages == []  # the redelivery stays silent


@pytest.mark.parametrize("body, sender, status", [
    ("HELP", MARCUS, InboundStatus.ANSWERED),
    ("STOP", MARCUS, InboundStatus.BLOCKED),
    ("my sink drips", MARCUS, InboundStatus.ANSWERED),
    ("hello", "+18885550199", InboundStatus.BLOCKED),  # suppressed by the turn (spam)
])
async def test_every_accepted_message_ends_in_one_final_state(make_gateway, spine, body, sender, status):
    class Spam(ScriptedPool):
        async def submit(self, envelope):
            result = await super().submit(envelope)
            return result.model_copy(update={"suppressed": envelope.from_address == "+18885550199"})

    client, _ = await make_gateway(Spam())
    reply = await text(client, body, from_=sender)
    assert (await spine.get_inbound(reply.message_sid)).status == status
