"""Actor keys: the name of the one PersonActor a message belongs to, and the host a key lives on.

A Person's actor is `person:<Person.id>`; a caller who is no Person yet is keyed by their channel
address, `addr:<channel>:<address>` (a phone, an email address and a Telegram user never share a
key). `host_index` places a key on a host by a stable hash. The replica (actors/client/placement.py)
and the host (actors/host/) both speak these names.
"""
from __future__ import annotations

import hashlib

from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.participants import claim_kind, normalize_address
from spine.phone import InvalidPhoneNumber
from spine.repo import Spine

PERSON_PREFIX, ADDRESS_PREFIX = "person:", "addr:"


def person_key(person_id: str) -> str:
    return PERSON_PREFIX + person_id


def person_of(key: str) -> str | None:
    """The Person.id a placement key names; None for an address key."""
    return key[len(PERSON_PREFIX):] if key.startswith(PERSON_PREFIX) else None


def address_key(channel: Channel | str, wire_address: str) -> str:
    try:
        address = normalize_address(Channel(channel), wire_address)
    except InvalidPhoneNumber:
        address = wire_address.strip()
    return f"{ADDRESS_PREFIX}{Channel(channel).value}:{address}"


def placement_key(envelope: MessageEnvelope) -> str:
    """The participant's key if the envelope names one, else its channel address's."""
    if envelope.participant_id:
        return person_key(envelope.participant_id)
    return address_key(envelope.channel, envelope.from_address)


def host_index(key: str, hosts: int) -> int:
    """Stable across processes and restarts (Python's hash() is salted per process)."""
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % hosts


async def claimed_person(spine: Spine, channel: Channel | str, wire_address: str) -> str | None:
    """The Person.id an address is claimed by (merges not followed), or None."""
    try:
        value = normalize_address(Channel(channel), wire_address)
    except InvalidPhoneNumber:
        return None
    return await spine.find_person_id_by_claim(claim_kind(Channel(channel)), value)
