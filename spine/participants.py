"""resolve_participant: wire address -> Person.id, following soft merges (ADR-0022 §5).

The invariant the router keys on: a resolved participant is never a merged loser.
"""
from __future__ import annotations

import logging

from spine.context import Channel
from spine.errors import SpineError
from spine.identity import ClaimKind, Person
from spine.phone import normalize_phone
from spine.repo import Spine

MAX_MERGE_HOPS = 8

log = logging.getLogger(__name__)

_CLAIM_FOR_CHANNEL = {
    Channel.SMS: ClaimKind.PHONE,
    Channel.VOICE: ClaimKind.PHONE,
    Channel.EMAIL: ClaimKind.EMAIL,
    Channel.TELEGRAM: ClaimKind.TELEGRAM,
}


class BrokenMergeChain(SpineError):
    """merged_into_person_id pointers that lead to no surviving Person: the spine needs repair."""


class MergeCycle(BrokenMergeChain):
    """The pointers loop (or run longer than MAX_MERGE_HOPS)."""


class DanglingMerge(BrokenMergeChain):
    """A pointer names a Person that does not exist."""


def claim_kind(channel: Channel) -> ClaimKind:
    """The claim a channel's wire address is: a phone number unless the channel says otherwise."""
    return _CLAIM_FOR_CHANNEL.get(channel, ClaimKind.PHONE)


def normalize_address(channel: Channel, wire_address: str) -> str:
    """The claim value for a wire address: E.164 for phone channels (raises InvalidPhoneNumber)."""
    if claim_kind(channel) == ClaimKind.PHONE:
        return normalize_phone(wire_address)
    return wire_address.strip().lower()


async def follow_merges(spine: Spine, person: Person) -> Person:
    """The surviving Person of a merge chain; never a merged loser (raises BrokenMergeChain)."""
    seen = {person.id}
    while person.merged_into_person_id:
        nxt = await spine.get_person(person.merged_into_person_id)
        if nxt is None:
            raise DanglingMerge(f"{person.id} is merged into {person.merged_into_person_id}, which does not exist")
        if nxt.id in seen or len(seen) > MAX_MERGE_HOPS:
            raise MergeCycle(f"merge chain from {sorted(seen)} loops or is longer than {MAX_MERGE_HOPS}")
        seen.add(nxt.id)
        person = nxt
    return person


async def resolve_person(spine: Spine, channel: Channel, wire_address: str) -> Person | None:
    """The surviving Person for a wire address, or None: unknown, or a broken merge chain (logged,
    by Person ids only). Raises InvalidPhoneNumber for a phone channel address that is no number."""
    person_id = await spine.find_person_id_by_claim(claim_kind(channel), normalize_address(channel, wire_address))
    if person_id is None:
        return None
    person = await spine.get_person(person_id)
    if person is None:
        log.warning("claim points at missing person %s", person_id)
        return None
    try:
        return await follow_merges(spine, person)
    except BrokenMergeChain as exc:
        log.warning("cannot resolve participant: %s", exc)
        return None


async def resolve_participant(spine: Spine, channel: Channel, wire_address: str) -> str | None:
    """Person.id for a wire address, or None for an unknown caller."""
    person = await resolve_person(spine, channel, wire_address)
    return person.id if person else None
