"""MessageEnvelope: one inbound, channel-neutral (ADR-0022). Channel adapters in the gateway
build it; PersonActors consume it. It crosses processes as msgpack bytes of its dump."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from spine.codec import WireModel
from spine.context import Channel
from spine.identity import utcnow

# How long "this address is claimed by no one", read as the message was placed, stands for the
# address actor and the router (MessageEnvelope.unclaimed_at): short, as a Person minted meanwhile
# by a concurrent turn must be found; a mint in that window still resolves to the claim's owner
# (the claim is written create-if-absent).
CLAIM_ABSENT_FRESH_S = 1.0


class MessageEnvelope(WireModel):
    message_id: str
    interaction_id: str
    channel: Channel
    from_address: str
    to_address: str
    body: str
    property_id: str
    participant_id: str | None = None
    media_urls: list[str] = Field(default_factory=list)
    origin: Literal["inbound", "admin"] = "inbound"
    impersonated_by: str | None = None
    # Did the channel authenticate the sender's address? An email's From is easy to forge, so
    # the email adapter says whether SPF or DKIM passed aligned with its domain; an unverified
    # address is never resolved to a Person (spine.router). `sender_check` says why, for the trace.
    sender_verified: bool = True
    sender_check: str | None = None
    received_at: datetime = Field(default_factory=utcnow)
    # When the sender's address was last read and found claimed by no Person (the Placer's read,
    # as the message was placed); the address actor and the router take it instead of reading the
    # claim again while it is fresh (actors.client.placement.claim_absent).
    unclaimed_at: datetime | None = None

    def claim_absent(self, now: datetime | None = None) -> bool:
        """Whether this says, freshly, that its verified sender's address is claimed by no Person."""
        if self.unclaimed_at is None or not self.sender_verified:
            return False
        return ((now or utcnow()) - self.unclaimed_at).total_seconds() < CLAIM_ABSENT_FRESH_S

