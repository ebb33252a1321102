"""Inbounds a dead replica left `accepted`: the sweep answers them (apology by REST through the
Twilio stand-in) or repairs them when their turn did end, once across replicas, and leaves
messages still within their turn alone."""
from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest

from gateway.channel_inbound import APOLOGY
from gateway.sms.abandoned import AbandonedInboundSweep
from gateway.sms.delivery import Delivery
from gateway.sms.options import SmsOptions
from gateway.twilio.rest import TwilioRest
from spine.context import Channel
from spine.identity import utcnow
from spine.records import AgentTrace, EventKind, InboundMessage, InboundStatus, OptOut, OutboxMessage, OutboxStatus
from spine.repo import Spine
from spine.store.base import StoreUnavailable
from tests.support.gateway_helpers import ScriptedPool, text

MARCUS, ELLEN, YALE = "+12065551001", "+12065551003", "+12065550100"
AFTER_S = 120.0


@pytest.fixture
async def sweeps(spine, twilio):
    """sweeps(n) -> n sweeps over one store, each with its own REST client (as n replicas)."""
    clients: list[httpx.AsyncClient] = []

    def make(n: int = 1, store=None) -> list[AbandonedInboundSweep]:
        """`store`: the replicas' view of the store (default: the test's own)."""
        made = []
        on = Spine(store) if store is not None else spine
        for _ in range(n):
            clients.append(http := httpx.AsyncClient(timeout=5.0))
            rest = TwilioRest(http, api_base=twilio.url, account_sid=twilio.account_sid, auth_token=twilio.auth_token)
            made.append(AbandonedInboundSweep(on, Delivery(on, rest), abandoned_after_s=AFTER_S, every_s=1.0))
        return made

    yield make
    for http in clients:
        await http.aclose()


class BothSeeIt:
    """A store on which the first `parties` listings of accepted inbounds happen at the same
    moment: none gets its answer before all have asked (replicas racing for the same message)."""

    def __init__(self, inner, parties: int) -> None:
        self.inner, self.barrier, self.held = inner, asyncio.Barrier(parties), parties

    async def query_index(self, key, *args, **kwargs):
        found = await self.inner.query_index(key, *args, **kwargs)
        if key == f"INBOUND#{InboundStatus.ACCEPTED}" and self.held:
            self.held -= 1
            await self.barrier.wait()
        return found

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


async def accepted(spine, sid: str, *, age_s: float, sender: str = MARCUS) -> InboundMessage:
    """What a replica that died mid-turn leaves: the record as accepted, `age_s` ago."""
    record = InboundMessage(id=sid, channel=Channel.SMS, from_address=sender, to_address=YALE, body="is it fixed?",
                            received_at=utcnow() - timedelta(seconds=age_s), interaction_id=f"ix_{sid}")
    assert await spine.accept_inbound(record)
    return record


async def test_an_abandoned_inbound_fails_and_the_sender_gets_the_apology_once(spine, twilio, sweeps):
    await accepted(spine, "SM_dead", age_s=AFTER_S + 60)
    # Two replicas sweeping at the same moment, both seeing the message: one text, one event.
    first, second = sweeps(2, store=BothSeeIt(spine.store, parties=2))
    await asyncio.gather(first.sweep_once(), second.sweep_once())
    record = await spine.get_inbound("SM_dead")
    assert record.status == InboundStatus.FAILED and record.failure.startswith("abandoned")
    [sent] = twilio.accepted()
    assert (sent.form["To"], sent.form["From"], sent.form["Body"]) == (MARCUS, YALE, APOLOGY)
    [event] = await spine.events(EventKind.INBOUND_FAILED)
    assert event.reason == "abandoned" and event.interaction_id == "ix_SM_dead"
    assert await first.sweep_once() == [] and len(twilio.accepted()) == 1  # settled for good
    assert await spine.inbound_with_status(InboundStatus.ACCEPTED) == []


async def test_a_message_still_within_its_turn_is_left_alone(spine, twilio, sweeps):
    await accepted(spine, "SM_busy", age_s=AFTER_S - 30)
    [sweep] = sweeps()
    assert await sweep.sweep_once() == []
    assert (await spine.get_inbound("SM_busy")).status == InboundStatus.ACCEPTED and twilio.accepted() == []


async def test_a_turn_that_ended_unrecorded_is_repaired_and_its_reply_sent_once(spine, twilio, sweeps):
    # The replica died between the turn's end and writing it, so its TwiML answer never left
    # (bench/chaos.py, a replica killed under load): the reply goes by REST, once across sweeps.
    record = await accepted(spine, "SM_ended", age_s=AFTER_S + 5)
    await spine.put_trace(AgentTrace(interaction_id=record.interaction_id, channel=Channel.SMS,
                                     reply="WO-7 is scheduled for Thursday."))
    first, second = sweeps(2, store=BothSeeIt(spine.store, parties=2))
    [repaired], _ = await asyncio.gather(first.sweep_once(), second.sweep_once())
    assert (repaired.status, repaired.reply) == (InboundStatus.ANSWERED, "WO-7 is scheduled for Thursday.")
    assert (await spine.get_inbound("SM_ended")).status == InboundStatus.ANSWERED
    [sent] = twilio.accepted()
    assert (sent.form["To"], sent.form["Body"]) == (MARCUS, "WO-7 is scheduled for Thursday.")
    assert len(await spine.events(EventKind.INBOUND_REPAIRED)) == 1
    assert await first.sweep_once() == [] and len(twilio.accepted()) == 1


async def test_a_reply_already_sent_late_is_not_sent_again_by_the_repair(spine, twilio, sweeps):
    record = await accepted(spine, "SM_late", age_s=AFTER_S + 5)
    await spine.put_trace(AgentTrace(interaction_id=record.interaction_id, channel=Channel.SMS, reply="Done."))
    await spine.put_outbox(OutboxMessage(id="SM_late-0", to_address=MARCUS, from_address=YALE, body="Done.",
                                         status=OutboxStatus.SENT, provider_id="SM" + "1" * 32))
    [sweep] = sweeps()
    [repaired] = await sweep.sweep_once()
    assert repaired.status == InboundStatus.ANSWERED and twilio.accepted() == []


async def test_an_opted_out_sender_gets_nothing(spine, twilio, sweeps):
    await accepted(spine, "SM_stopped", age_s=AFTER_S + 5, sender=ELLEN)
    await spine.set_opt_out(OptOut(address=ELLEN, opted_out=True, keyword="STOP"))
    [sweep] = sweeps()
    await sweep.sweep_once()
    assert (await spine.get_inbound("SM_stopped")).status == InboundStatus.FAILED and twilio.accepted() == []
    assert [m.status for m in await spine.outbox(OutboxStatus.BLOCKED)] == [OutboxStatus.BLOCKED]


async def test_the_webhook_reserves_the_interaction_id_at_acceptance(make_gateway, spine):
    slow = ScriptedPool(delay_s=1.0)  # the turn is still running when we look
    client, _ = await make_gateway(slow, sms_options=SmsOptions(inline_budget_s=0.2))
    exchange = await text(client, "is my toilet fixed?")
    record = await spine.get_inbound(exchange.message_sid)
    assert record.status == InboundStatus.ACCEPTED and record.interaction_id == exchange.interaction_id
    assert [r.id for r in await spine.inbound_with_status(InboundStatus.ACCEPTED)] == [exchange.message_sid]


class FailingInboundWrites:
    """A store whose inbound-log writes fail (the store is down for them) until `healed`."""

    def __init__(self, inner) -> None:
        self.inner, self.healed = inner, False

    async def put(self, item, **kwargs):
        if item.pk.startswith("INBOUND#") and not self.healed:
            raise StoreUnavailable("inbound log unavailable")
        return await self.inner.put(item, **kwargs)

    def __getattr__(self, name: str):
        return getattr(self.inner, name)


async def test_a_sweep_that_cannot_record_sends_nothing_and_the_next_one_settles_it(spine, twilio, sweeps):
    await accepted(spine, "SM_flaky", age_s=AFTER_S + 5)
    failing = FailingInboundWrites(spine.store)
    [sweep] = sweeps(store=failing)
    assert await sweep.sweep_once() == []
    assert (await spine.get_inbound("SM_flaky")).status == InboundStatus.ACCEPTED and twilio.accepted() == []
    failing.healed = True
    [settled] = await sweep.sweep_once()
    assert settled.status == InboundStatus.FAILED and len(twilio.accepted()) == 1
