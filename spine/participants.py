"""resolve_participant: wire address -> Person.id, following soft merges (ADR-0022 §5)."""
from __future__ import annotations

from spine.context import Channel
from spine.identity import ClaimKind, Person
from spine.phone import normalize_phone
from spine.repo import Spine

MAX_MERGE_HOPS = 8

_CLAIM_FOR_CHANNEL = {
    Channel.SMS: ClaimKind.PHONE,
    Channel.VOICE: ClaimKind.PHONE,
    Channel.EMAIL: ClaimKind.EMAIL,
    Channel.TELEGRAM: ClaimKind.TELEGRAM,
}


class MergeCycle(Exception):
    """merged_into_person_id pointers loop; the spine needs repair, the caller gets no Person."""


def normalize_address(channel: Channel, wire_address: str) -> str:
    """The claim value for a wire address: E.164 for phone channels (raises InvalidPhoneNumber)."""
    if _CLAIM_FOR_CHANNEL.get(channel) == ClaimKind.PHONE:
        return normalize_phone(wire_address)
    return wire_address.strip().lower()


async def follow_merges(spine: Spine, person: Person) -> Person:
    """The surviving Person of a merge chain; never a merged loser."""
    seen = {person.id}
    while person.merged_into_person_id:
        nxt = await spine.get_person(person.merged_into_person_id)
        if nxt is None:
            return person  # dangling merge pointer: the last real Person stands
        if nxt.id in seen or len(seen) > MAX_MERGE_HOPS:
            raise MergeCycle(f"merge chain from {sorted(seen)} loops or is longer than {MAX_MERGE_HOPS}")
        seen.add(nxt.id)
        person = nxt
    return person


async def resolve_person(spine: Spine, channel: Channel, wire_address: str) -> Person | None:
    kind = _CLAIM_FOR_CHANNEL.get(channel, ClaimKind.PHONE)
    person_id = await spine.find_person_id_by_claim(kind, normalize_address(channel, wire_address))
    if person_id is None:
        return None
    person = await spine.get_person(person_id)
    if person is None:
        return None
    try:
        return await follow_merges(spine, person)
    except MergeCycle:
        return None


async def resolve_participant(spine: Spine, channel: Channel, wire_address: str) -> str | None:
    """Person.id for a wire address, or None for an unknown caller."""
    person = await resolve_person(spine, channel, wire_address)
    return person.id if person else None
