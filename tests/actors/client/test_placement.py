"""How a message finds its owner, without Ray: HostPool over two in-process PersonHosts that share
the store, real turns (offline model, in-process Dispatcher)."""
from __future__ import annotations

import pytest

from actors.client.placement import Placer, address_key, person_key, placement_key
from actors.client.pool import HostPool
from actors.config import RuntimeConfig
from actors.host.host import host_name, owner_id
from spine.intent_hints import MINTED_PREFIX
from tests.support.actor_helpers import InProcess, actor, envelope, real_host

PROSPECT = "+14155559876"


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
