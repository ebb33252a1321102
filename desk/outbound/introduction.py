"""Clara says who she is: the first message she authors to a person ends with "(Clara, the AI
assistant at <property>)", in their language, once per person.

"First" is across both ways she speaks: a message she starts (a notice, a dispatch to a vendor, a
page's text, a follow-up: `with_introduction` when queue_outbound writes its row) and her first
reply to someone who wrote first (`introduce_once`, asked by the turn: actors.turn.introduce).
Whichever comes first marks the person (`keys.introduced_marker`, create-if-absent) and the other
then adds nothing. Not introduced: a staff member's own words and fixed texts she does not sign
(`OutboundRequest.from_clara`), and a call's words, which its route speaks (only text channels).
At the end of the message, so a notice still opens with what matters.
"""
from __future__ import annotations

import spine.keys as keys
from spine.context import Channel
from spine.identity import Person
from spine.notification import OutboundRequest
from spine.property import Property
from spine.repo import Spine

INTRODUCED_CHANNELS = frozenset({Channel.SMS, Channel.EMAIL, Channel.TELEGRAM})
_OPENS = " (Clara, "  # how every introduction begins, in either language (carry_introduction finds it)


def introduction(language: str | None, property_name: str | None) -> str:
    """The words, in Spanish for a Spanish speaker, else English."""
    if (language or "").startswith("es"):
        return f"(Clara, la asistente de IA{f' de {property_name}' if property_name else ''})"
    return f"(Clara, the AI assistant{f' at {property_name}' if property_name else ''})"


def introduced(body: str, language: str | None, property_name: str | None) -> str:
    return f"{body} {introduction(language, property_name)}"


async def introduce_once(spine: Spine, person_id: str) -> bool:
    """Whether this message is the first Clara authors to the person, marking it so: read first
    (a person met before costs no write), then created once (a racing first message loses)."""
    marker = keys.introduced_marker(person_id)
    return not await spine.is_marked(marker) and await spine.mark_once(marker)


async def with_introduction(spine: Spine, request: OutboundRequest, person: Person | None, prop: Property | None,
                            channel: Channel) -> str:
    """A started message's body, with the introduction when it is the first Clara authors to this
    person (marked by `note_introduced` once its row is written and not blocked)."""
    if person is None or not request.from_clara or channel not in INTRODUCED_CHANNELS:
        return request.body
    if await spine.is_marked(keys.introduced_marker(person.id)):
        return request.body
    last = await spine.last_contact(person.id)  # read only for a person not yet introduced
    language = last.language if last is not None and last.language else person.language
    return introduced(request.body, language, prop.name if prop else None)


def carry_introduction(old_body: str, new_body: str) -> str:
    """A pending row renewed with newer words keeps the introduction it was queued with."""
    at = old_body.rfind(_OPENS)
    return new_body + old_body[at:] if at >= 0 and old_body.endswith(")") else new_body


async def note_introduced(spine: Spine, request: OutboundRequest, body: str) -> None:
    if body != request.body:
        await spine.mark_once(keys.introduced_marker(request.recipient_person_id))
