"""What a started message's purpose adds to the one check (desk.outbound.queue).

Marketing (a lead's follow-up after the first, a reactivation) is held to the TCPA's rules: only
to a person who wrote to us on that very address (never a number that never wrote), not opted out,
and never urgent, so it waits for the routine 09:00-19:00 window in the property's zone and the
TCPA's 08:00-21:00 in the recipient's (desk.outbound.contact_window.sending_opens, which the
follow-up scheduler asks again at the moment of sending). Service messages (a reminder of a tour
they booked, a repair's close-out) keep the routine window.
"""
from __future__ import annotations

from desk.outbound.may_send import opted_out
from spine.context import Channel
from spine.conversation import Author
from spine.identity import Person
from spine.notification import OutboundRequest, Purpose
from spine.repo import Spine


async def marketing_refusal(spine: Spine, request: OutboundRequest, person: Person | None, channel: Channel,
                            address: str | None) -> str | None:
    """Why this marketing message may not go (its row kept `blocked` with the reason), or None."""
    if request.purpose != Purpose.MARKETING or person is None:
        return None
    if request.urgent:
        return "marketing is never urgent"
    if address and await spine.is_opted_out(address, channel):
        return opted_out(channel)
    if not await _wrote_from(spine, person.id, channel, address, request.property_id):
        return f"marketing only to a {channel} address that wrote to us"
    # The hour is not a refusal: never urgent, it waits for the first instant inside the routine
    # window and the TCPA's in the recipient's zone (queue_outbound's not_before).
    return None


async def _wrote_from(spine: Spine, person_id: str, channel: Channel, address: str | None,
                      property_id: str | None) -> bool:
    """The person wrote to us on this channel: their last contact was this address, or their
    conversation at the property holds a message of theirs on it."""
    last = await spine.last_contact(person_id)
    if last is not None and last.channel == channel and last.address == address:
        return True
    if property_id is None:
        return False
    said = await spine.messages_of(person_id, property_id, limit=200)
    return any(m.author == Author.PERSON and m.channel == channel for m in said)
