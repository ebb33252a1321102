"""A sender the channel could not authenticate (an email whose From failed SPF and DKIM) is never
placed on, or moved to, the actor of the Person its address belongs to: it stays an address actor
and the router treats it as unknown. Without Ray: HostPool over in-process hosts, real turns."""
from __future__ import annotations

from actors.client.placement import Placer
from actors.client.pool import HostPool
from actors.config import RuntimeConfig
from actors.host.host import host_name, owner_id
from spine.context import Channel
from spine.envelope import MessageEnvelope
from tests.support.actor_helpers import InProcess, real_host


def _email(n: int, *, verified: bool) -> MessageEnvelope:
    return MessageEnvelope(message_id=f"email:m{n}", interaction_id=f"ix_unverified_{n}", channel=Channel.EMAIL,
                           from_address="marcus@example.com", to_address="yale@clara.example",
                           body="my toilet is overflowing!", property_id="pf_yale", sender_verified=verified,
                           sender_check="test")


async def test_an_unverified_sender_is_not_moved_to_the_person_its_address_names(spine, clock):
    pool = HostPool(RuntimeConfig(namespace="t"), [InProcess(real_host(spine, clock, owner_id("t", host_name(0))))],
                    None, spine)
    placer = Placer(spine)
    forged = await pool.submit(await placer.placed(_email(1, verified=False)))
    assert forged.person_id is None and forged.trace.routing.roles == ["other"]
    assert "create_work_order" not in forged.trace.tools_offered
    # the same address, authenticated, is Marcus: found by the placer, or by the address actor's claim check
    assert (await pool.submit(await placer.placed(_email(2, verified=True)))).person_id == "p_marcus"
    assert (await pool.submit(_email(3, verified=True))).person_id == "p_marcus"
