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

import time
from collections.abc import Callable

from actors.protocol.keys import claimed_person
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.identity import utcnow
from spine.repo import Spine
from tools.authority import STALE_AFTER_S


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
        if person_id is None:  # read just now: the address actor and the router need not read it again
            return envelope.model_copy(update={"unclaimed_at": utcnow()})
        return envelope.model_copy(update={"participant_id": person_id})
