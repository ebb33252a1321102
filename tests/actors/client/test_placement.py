"""How a message finds its owner, without Ray: HostPool over two in-process PersonHosts that share
the store, real turns (offline model, in-process Dispatcher)."""
from __future__ import annotations

from datetime import timedelta

import pytest

from actors.client.placement import Placer
from actors.client.pool import HostPool
from actors.config import RuntimeConfig
from actors.host.host import host_name, owner_id
from actors.protocol.keys import address_key, person_key, placement_key
from spine.envelope import CLAIM_ABSENT_FRESH_S
from spine.identity import utcnow
from spine.intent.hints import MINTED_PREFIX
from spine.repo import Spine
from spine.store.counting import ReadCount, counting
from tests.support.actor_helpers import InProcess, actor, envelope, real_host

PROSPECT, STRANGER = "+14155559876", "+14155550177"


@pytest.fixture
def pool(spine, clock) -> HostPool:
    config = RuntimeConfig(namespace="t")
    hosts = [real_host(spine, clock, owner_id("t", host_name(i))) for i in range(2)]
    return HostPool(config, [InProcess(h) for h in hosts], None, spine)


def test_placement_keys_are_channel_generic():
    assert address_key("sms", "(206) 555-1001") == "addr:sms:+12065551001"
    assert address_key("voice", "+12065551001") == "addr:voice:+12065551001"
    assert address_key("email", " Someone@Example.COM ") == "addr:email:someone@example.com"
    assert address_key("telegram", "424242") == "addr:telegram:424242"
    assert placement_key(envelope("p_marcus", "hi")) == "person:p_marcus"
    assert placement_key(envelope(None, "hi", from_address=PROSPECT)) == "addr:sms:" + PROSPECT


async def test_a_minted_prospect_moves_to_their_person_actor_with_the_transcript(pool, spine):
    placer = Placer(spine)
    first = await pool.submit(await placer.placed(envelope(None, "do you have 2BR units next month?",
                                                           from_address=PROSPECT)))
    minted = first.person_id
    assert minted and minted.startswith(MINTED_PREFIX)
    addr = address_key("sms", PROSPECT)
    assert actor(pool, addr) is None  # the address actor went cold ...
    assert (await pool.hosts[0].host.runtime.ownerships.current(addr)).owner == ""  # ... and let its lease go
    second = await pool.submit(await placer.placed(envelope(None, "is parking included?", from_address=PROSPECT)))
    third = await pool.submit(await placer.placed(envelope(None, "can I tour on Tuesday?", from_address=PROSPECT)))
    assert second.person_id == third.person_id == minted
    owner = actor(pool, person_key(minted))
    assert [t["content"] for t in owner.transcript if t["role"] == "user"] == [
        "do you have 2BR units next month?", "is parking included?", "can I tour on Tuesday?"]
    assert (await pool.hosts[0].host.runtime.ownerships.current(person_key(minted))).owner == owner.rt.host_id
    assert owner.turns == 2  # one actor for this Person, holding the whole conversation


async def test_an_address_actor_hands_a_known_caller_to_their_person(pool, spine):
    """An adapter that did not resolve the address still reaches the Person's actor (one hop later)."""
    result = await pool.submit(envelope(None, "what are the office hours?", from_address="+12065551001"))
    assert result.person_id == "p_marcus"
    assert actor(pool, "person:p_marcus").turns == 1
    assert actor(pool, address_key("sms", "+12065551001")) is None


async def test_a_merged_away_number_is_placed_with_the_surviving_person(pool, spine):
    placed = await Placer(spine).placed(envelope(None, "hello?", from_address="+12065551088"))
    assert placed.participant_id == "p_marcus_old"  # the claim; the actor follows the merge
    result = await pool.submit(placed)
    assert result.person_id == "p_marcus" and actor(pool, "person:p_marcus").turns == 1
    assert actor(pool, "person:p_marcus_old") is None


async def test_an_unknown_numbers_claim_is_read_once_per_inbound(spine, clock):
    """The Placer's read travels with the message (MessageEnvelope.unclaimed_at): neither the
    address actor nor the router reads the claim again while it is fresh; a stale one is read once."""
    counted = Spine(counting(spine.store))
    pool = HostPool(RuntimeConfig(namespace="t"), [InProcess(real_host(counted, clock, owner_id("t", host_name(0))))],
                    None, counted)
    with ReadCount() as placing:
        placed = await Placer(counted).placed(envelope(None, "what are your office hours?", from_address=STRANGER))
    assert placed.participant_id is None and placing.as_dict().get("claim") == 1
    fresh = await pool.submit(placed)
    assert fresh.reply and fresh.trace.store_reads.get("claim", 0) == 0
    waited = envelope(None, "hello? anyone there?", from_address=STRANGER).model_copy(
        update={"unclaimed_at": utcnow() - timedelta(seconds=CLAIM_ABSENT_FRESH_S)})
    late = await pool.submit(waited)
    assert late.reply and late.trace.store_reads.get("claim", 0) == 1  # the actor's read; the router takes it
