"""Racing first messages from one unknown number mint exactly one Person and one prospect role."""
from __future__ import annotations

import asyncio

from spine.identity import ClaimKind, PersonRoleType
from spine.routing_types import MetaRole
from tests.support.routing_helpers import YALE, route


async def test_two_racing_messages_mint_one_person(spine):
    a, b = await asyncio.gather(route(spine, "+14155559876", "do you have 2BR units next month?"),
                                route(spine, "+14155559876", "and how much is a 2 bedroom?"))
    assert a.person_id == b.person_id and a.person_id.startswith("p_new_9876_")
    assert sorted([a.minted, b.minted]) == [False, True]
    assert a.l1.roles == b.l1.roles == [MetaRole.PROSPECT]
    roles = await spine.roles_of(a.person_id)
    assert [r.role_type for r in roles] == [PersonRoleType.PROSPECT]
    assert await spine.find_person_id_by_claim(ClaimKind.PHONE, "+14155559876") == a.person_id


async def test_many_racers_across_the_store_still_mint_once(spine):
    decisions = await asyncio.gather(*(route(spine, "+14155550777", f"is a studio available? ({i})")
                                       for i in range(8)))
    assert len({d.person_id for d in decisions}) == 1
    assert sum(d.minted for d in decisions) == 1
    person_id = decisions[0].person_id
    assert len(await spine.roles_of(person_id)) == 1
    assert (await spine.get_prospect(person_id, YALE)).stage == "inquiry"


async def test_a_late_replay_never_resets_a_qualified_prospect(spine):
    first = await route(spine, "+14155550888", "any 1br available?")
    prospect = await spine.get_prospect(first.person_id, YALE)
    await spine.put_prospect(prospect.model_copy(update={"stage": "touring", "bedrooms": 1}))
    from spine.intent.hints import mint_prospect

    replay = await mint_prospect(spine, address="+14155550888", property_id=YALE)
    assert (replay.person_id, replay.minted) == (first.person_id, False)
    kept = await spine.get_prospect(first.person_id, YALE)
    assert (kept.stage, kept.bedrooms) == ("touring", 1)
