"""resolve_participant on the demo data, on both backends: E.164 matching, merges, broken chains."""
from __future__ import annotations

import pytest

from spine.context import Channel
from spine.identity import Claim, ClaimKind, Person
from spine.participants import (
    MAX_MERGE_HOPS,
    DanglingMerge,
    MergeCycle,
    follow_merges,
    resolve_participant,
    resolve_person,
)
from spine.phone import InvalidPhoneNumber


def _person(pid: str, phone: str | None = None, merged_into: str | None = None) -> Person:
    claims = [Claim(kind=ClaimKind.PHONE, value=phone)] if phone else []
    return Person(id=pid, display_name=pid, claims=claims, merged_into_person_id=merged_into)


@pytest.mark.parametrize("spelling", ["(206) 555-1001", "+1 206-555-1001", "206.555.1001", "+12065551001"])
async def test_every_spelling_of_marcus_is_marcus(seeded, spelling):
    assert await resolve_participant(seeded, Channel.SMS, spelling) == "p_marcus"


@pytest.mark.parametrize("channel", [Channel.SMS, Channel.VOICE, Channel.ADMIN])
async def test_phone_channels_share_claims(seeded, channel):
    assert await resolve_participant(seeded, channel, "(303) 555-2020") == "p_carlos"


@pytest.mark.parametrize("number, person_id", [
    ("+12065551002", "p_jordan"), ("+12065551003", "p_ellen"), ("+13035551500", "p_mike"),
    ("+12065550150", "p_priya"), ("+12065550151", "p_sam"), ("+12065550152", "p_lena"),
    ("+12065551099", "p_ruth"), ("+18885550199", "p_spam"),
])
async def test_demo_people_resolve(seeded, number, person_id):
    assert await resolve_participant(seeded, Channel.SMS, number) == person_id


async def test_the_old_merged_number_resolves_to_the_survivor(seeded):
    person = await resolve_person(seeded, Channel.SMS, "(206) 555-1088")
    assert person.id == "p_marcus" and person.merged_into_person_id is None
    assert await seeded.find_person_id_by_claim(ClaimKind.PHONE, "+12065551088") == "p_marcus_old"


@pytest.mark.parametrize("unknown", ["+14155559876", "+13105557777"])
async def test_unknown_numbers_resolve_to_no_one(seeded, unknown):
    assert await resolve_participant(seeded, Channel.SMS, unknown) is None


async def test_an_invalid_number_is_a_clear_error(seeded):
    with pytest.raises(InvalidPhoneNumber, match="phone number"):
        await resolve_participant(seeded, Channel.SMS, "not a number")


async def test_a_chain_of_merges_ends_at_the_survivor(seeded):
    await seeded.put_person(_person("p_a", "+12065557001", merged_into="p_b"))
    await seeded.put_person(_person("p_b", merged_into="p_c"))
    await seeded.put_person(_person("p_c"))
    assert await resolve_participant(seeded, Channel.SMS, "+12065557001") == "p_c"


async def test_a_merge_cycle_resolves_to_no_one_never_to_a_loser(seeded):
    await seeded.put_person(_person("p_loop1", "+12065557002", merged_into="p_loop2"))
    await seeded.put_person(_person("p_loop2", merged_into="p_loop3"))
    await seeded.put_person(_person("p_loop3", merged_into="p_loop1"))
    assert await resolve_participant(seeded, Channel.SMS, "+12065557002") is None
    with pytest.raises(MergeCycle):
        await follow_merges(seeded, await seeded.get_person("p_loop1"))


async def test_a_person_merged_into_itself_is_a_cycle(seeded):
    await seeded.put_person(_person("p_self", "+12065557003", merged_into="p_self"))
    assert await resolve_participant(seeded, Channel.SMS, "+12065557003") is None


async def test_a_dangling_merge_pointer_resolves_to_no_one_never_to_the_loser(seeded):
    await seeded.put_person(_person("p_orphan", "+12065557004", merged_into="p_deleted"))
    assert await resolve_participant(seeded, Channel.SMS, "+12065557004") is None
    with pytest.raises(DanglingMerge, match="p_deleted"):
        await follow_merges(seeded, await seeded.get_person("p_orphan"))


async def test_a_chain_longer_than_the_guard_is_refused(seeded):
    ids = [f"p_hop{n}" for n in range(MAX_MERGE_HOPS + 3)]
    for here, there in zip(ids, ids[1:] + [None], strict=True):
        await seeded.put_person(_person(here, "+12065557005" if here == ids[0] else None, merged_into=there))
    assert await resolve_participant(seeded, Channel.SMS, "+12065557005") is None


async def test_a_claim_pointing_at_a_missing_person_resolves_to_no_one(seeded):
    await seeded.claim(ClaimKind.PHONE, "+12065557006", "p_never_written")
    assert await resolve_participant(seeded, Channel.SMS, "+12065557006") is None


async def test_email_claims_are_case_insensitive(seeded):
    await seeded.put_person(Person(id="p_mail", display_name="Mail", claims=[Claim(kind=ClaimKind.EMAIL,
                                                                                   value="ana@example.com")]))
    assert await resolve_participant(seeded, Channel.EMAIL, "  Ana@Example.COM ") == "p_mail"
    assert await resolve_participant(seeded, Channel.SMS, "+12065551001") == "p_marcus"  # other kinds untouched
