"""A store that refuses writes for a moment at the end of a turn (SQLite write-locked by another
connection, as bench/chaos.py does it) loses nothing and doubles nothing: the email reply whose
outbox row was refused goes out once the store takes it, and an SMS whose apology went out inline
while its failure could not be recorded gets no second apology from the abandoned-inbound sweep."""
from __future__ import annotations

import asyncio
import sqlite3
from datetime import timedelta

import pytest

from actors.protocol.turn import TurnResult
from desk.portfolio.demo import seed
from gateway.channel_inbound import APOLOGY
from gateway.email.route_form import route_form
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.identity import utcnow
from spine.records import AgentTrace, InboundMessage, InboundStatus
from spine.repo import Spine
from spine.store import StoreUnavailable
from spine.store.sqlite import SqliteStore
from tests.support.gateway_helpers import GatewayClients, text

SID = "SM" + "5" * 32
LOCKED_S = 1.0  # the store's own wait for a lock gives up after 0.4 s (timeout_s 0.5)


@pytest.fixture
async def quick_spine(tmp_path):
    """The demo data on a store that gives up on a lock quickly."""
    spine = Spine(SqliteStore(tmp_path / "clara.db", timeout_s=0.5))
    await seed(spine)
    yield spine
    await spine.store.close()


class LockingPool:
    """A turn at the end of which another process takes the store's write lock for LOCKED_S:
    it answers `reply`, or fails with `error`."""

    def __init__(self, path, reply: str = "", error: Exception | None = None) -> None:
        self.path, self.reply, self.error = path, reply, error

    async def submit(self, envelope: MessageEnvelope) -> TurnResult:
        holder = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")
        asyncio.get_running_loop().call_later(LOCKED_S, lambda: (holder.execute("ROLLBACK"), holder.close()))
        if self.error is not None:
            raise self.error
        trace = AgentTrace(interaction_id=envelope.interaction_id, channel=envelope.channel)
        return TurnResult(interaction_id=envelope.interaction_id, person_id=None, reply=self.reply, trace=trace)

    async def actors(self) -> list:
        return []

    async def host_names(self) -> list[str]:
        return []


async def test_an_email_reply_refused_by_the_outbox_goes_out_once_the_store_takes_it(quick_spine, tmp_path, mailgun):
    mailgun.requests.clear()
    gateways = GatewayClients(quick_spine, None)
    pool = LockingPool(tmp_path / "clara.db", reply="The pool opens at 8am.")
    client, context = await gateways.open(pool, with_twilio=False, mailgun_signing_key=mailgun.signing_key,
                                          mailgun_api_key=mailgun.api_key, mailgun_domain=mailgun.domain,
                                          mailgun_api_base=mailgun.url)
    try:
        form = route_form(signing_key=mailgun.signing_key, from_="bench@tenants.example", to="yale@clara.example",
                          text="when is the pool open?", message_id="m1@tenants.example")
        answer = await client.post("/email/inbound", data=form)
        assert answer.status_code == 200
        await context.email.handler.inbound.behind.drain()
    finally:
        await gateways.aclose()
    sent = [m for m in mailgun.wait_for_sends(1, timeout_s=5.0) if m.header("In-Reply-To") == "<m1@tenants.example>"]
    assert [m.form["text"] for m in sent] == ["The pool opens at 8am."]
    record = await quick_spine.get_inbound("email:m1@tenants.example")
    assert record is not None and record.status == InboundStatus.ANSWERED


async def test_an_sms_apologised_inline_is_not_apologised_again_by_the_sweep(quick_spine, tmp_path, twilio):
    gateways = GatewayClients(quick_spine, twilio)
    pool = LockingPool(tmp_path / "clara.db", error=RuntimeError("the host could not reach the store"))
    client, context = await gateways.open(pool)
    try:
        exchange = await text(client, "is the gym open?", sid=SID)
        assert exchange.messages == [APOLOGY]
        await context.sms.drain()
        record = await quick_spine.get_inbound(SID)
        assert record is not None and record.status == InboundStatus.FAILED
        context.abandoned.clock = lambda: utcnow() + timedelta(hours=1)  # long past any turn
        assert await context.abandoned.sweep_once() == []
    finally:
        await gateways.aclose()
    assert twilio.accepted() == []  # the one apology went out inline


def test_the_write_behind_horizon_ends_before_the_sweep_may_act():
    """A retried end and the abandoned-inbound sweep never both act on one message."""
    from annotated_types import Ge

    from gateway.sms.options import SmsOptions
    from gateway.write_behind import HORIZON_S

    [lowest] = [m.ge for m in SmsOptions.model_fields["abandoned_after_s"].metadata if isinstance(m, Ge)]
    assert lowest > HORIZON_S


async def test_a_reply_whose_row_never_landed_leaves_its_message_accepted_for_the_sweep(quick_spine):
    # The outbox row's write keeps timing out until the write behind's horizon (cut to a moment
    # here) while the record's own write would land: the message must not be on record as
    # answered, or no one would ever send its reply (bench/chaos.py on DynamoDB lost a Telegram
    # reply so).
    from gateway.inbound_log import InboundLog
    from gateway.write_behind import WriteBehind

    log = InboundLog(quick_spine, WriteBehind(horizon_s=1.0))
    record = InboundMessage(id="telegram:880001", channel=Channel.TELEGRAM, from_address="5550009",
                            to_address="7000000100", body="hi")
    assert await log.accept(record)
    tries = []

    async def queue_the_row() -> None:
        tries.append(1)
        raise StoreUnavailable("the outbox row's write timed out")

    await log.answered(record, "The pool opens at 8.", first=queue_the_row)
    await log.behind.drain()
    stored = await quick_spine.get_inbound(record.id)
    assert len(tries) >= 2  # retried behind, then given up
    assert stored is not None and stored.status == InboundStatus.ACCEPTED
