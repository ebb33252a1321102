"""MessageEnvelope: one inbound, channel-neutral (ADR-0022). Channel adapters in the gateway
build it; PersonActors consume it. It crosses processes as msgpack bytes of its dump."""
from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from spine.codec import WireModel
from spine.context import Channel
from spine.identity import utcnow


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

