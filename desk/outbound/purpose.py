"""What a started message's purpose adds to the one check (desk.outbound.queue), and Clara saying
who she is in the first message she starts to a person.

Marketing (a lead's follow-up after the first, a reactivation) is held to the TCPA's rules: only
to a person who wrote to us on that very address (never a number that never wrote), not opted out,
and never urgent, so it waits for the routine 09:00-19:00 window, inside the TCPA's 08:00-21:00
(`in_marketing_window` is what the follow-up scheduler checks again at the moment of sending).
Service messages (a reminder of a tour they booked, a repair's close-out) keep the routine window.
"""
from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

from spine.context import Channel
from spine.conversation import Author
from spine.identity import Person
from spine.notification import NotificationKind, OutboundRequest, Purpose
from spine.property import Property
from spine.repo import Spine

MARKETING_OPENS = time(8, 0)
MARKETING_CLOSES = time(21, 0)
# Clara introduces herself in what she starts on her own initiative (a follow-up may be the first
# a person ever hears from her). Staff write their own words, a page is the on-call team's alarm,
# and a notice or dispatch answers something the person or their office already started.
INTRODUCED_KINDS = frozenset({NotificationKind.FOLLOWUP})


def introduced_marker(person_id: str) -> str:
    """Marked once Clara has started a message to the person that said she is an AI assistant."""
    return f"clara-introduced#{person_id}"


def in_marketing_window(now: datetime, timezone: str) -> bool:
    local = now.astimezone(ZoneInfo(timezone)).time()
    return MARKETING_OPENS <= local < MARKETING_CLOSES


async def marketing_refusal(spine: Spine, request: OutboundRequest, person: Person | None, channel: Channel,
                            address: str | None) -> str | None:
    """Why this marketing message may not go (kept `suppressed` with the reason), or None."""
    if request.purpose != Purpose.MARKETING or person is None:
        return None
    if request.urgent:
        return "marketing is never urgent"
    if address and await spine.is_opted_out(address, channel):
        return f"opted out of {channel}"
    if not await _wrote_from(spine, person.id, channel, address, request.property_id):
        return f"marketing only to a {channel} address that wrote to us"
    # The hour is not a refusal: never urgent, it waits for the routine window (09:00-19:00 in the
    # property's zone), which lies inside the TCPA's 08:00-21:00.
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


def _intro(prop: Property | None, person: Person) -> str:
    where = f" at {prop.name}" if prop else ""
    if (person.language or "").startswith("es"):
        return f"(Clara, la asistente de IA{where})"
    return f"(Clara, the AI assistant{where})"


async def with_introduction(spine: Spine, request: OutboundRequest, person: Person | None,
                            prop: Property | None) -> str:
    """The body, with Clara's introduction added to the first message she starts to this person
    (at its end, so a notice still opens with what matters)."""
    if person is None or request.kind not in INTRODUCED_KINDS:
        return request.body
    if await spine.is_marked(introduced_marker(person.id)):
        return request.body
    return f"{request.body} {_intro(prop, person)}"


def carry_introduction(old_body: str, new_body: str) -> str:
    """A pending row renewed with newer words keeps the introduction it was queued with."""
    at = old_body.rfind(" (Clara, ")
    return new_body + old_body[at:] if at >= 0 and old_body.endswith(")") else new_body


async def note_introduced(spine: Spine, request: OutboundRequest, body: str) -> None:
    if body != request.body:
        await spine.mark_once(introduced_marker(request.recipient_person_id))
