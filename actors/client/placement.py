"""How a message finds its owner: one PersonActor per Person.id, placed by a stable hash.

A message is placed by the Person it resolves to (`person:<Person.id>`); a caller who is no
Person yet by their channel address (`addr:<channel>:<address>`, so a phone, an email address
and a Telegram user never share a key). Every channel adapter resolves its envelope with
`Placer.placed` before submitting it to the pool; that resolves the address by its claim only
(no Person read: the Person's actor reads the Person and follows merges, answering with the
survivor's key if the claim names a merged-away Person). When an address actor's caller becomes
a Person (the router mints one), the conversation moves to the Person's actor (actors.host.handoff),
and later messages from that address resolve to the Person.
"""
from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.participants import claim_kind, normalize_address
from spine.phone import InvalidPhoneNumber
from spine.repo import Spine
from tools.authority import STALE_AFTER_S

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


class Placer:
    """Resolves an envelope's participant for placement. Known claims are kept for
    STALE_AFTER_S (a number moved to another Person is placed by its new owner within that
    bound); unknown addresses are asked every time, so a freshly minted Person is found at once."""

    def __init__(self, spine: Spine, ttl_s: float = STALE_AFTER_S, clock: Callable[[], float] = time.monotonic,
                 max_entries: int = 100_000) -> None:
        self.spine, self.ttl_s, self.clock, self.max_entries = spine, ttl_s, clock, max_entries
        self._known: dict[tuple[str, str], tuple[float, str]] = {}

    async def participant(self, channel: Channel | str, wire_address: str) -> str | None:
        key = (str(channel), wire_address)
        kept = self._known.get(key)
        now = self.clock()
        if kept is not None and now - kept[0] < self.ttl_s:
            return kept[1]
        person_id = await claimed_person(self.spine, channel, wire_address)
        if person_id is not None:
            if len(self._known) >= self.max_entries:
                self._known.clear()
            self._known[key] = (now, person_id)
        return person_id

    async def placed(self, envelope: MessageEnvelope) -> MessageEnvelope:
        """The envelope with its participant, as a channel adapter hands it to the pool. An
        adapter that skips this still reaches the right actor (the address actor checks the claim
        and answers Moved), one hop later."""
        if envelope.participant_id or not envelope.sender_verified:  # an unverified sender is no Person
            return envelope
        person_id = await self.participant(envelope.channel, envelope.from_address)
        return envelope.model_copy(update={"participant_id": person_id}) if person_id else envelope
