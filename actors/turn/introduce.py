"""Clara's first reply to someone who wrote first says she is an AI assistant (desk.outbound.introduction).

Once per person, shared with the messages she starts: whichever reaches them first marks them. The
warm Opening keeps `introduced` once known, so only the first reply of an activation asks the
store (one read; one create-if-absent the very first time); every warm turn after reads nothing.
Not for Ask Clara (staff asking her, not the person) and not on a call (its words are the voice
agent's), and a reply that already says it (the offline model's "I'm Clara, a property management
AI" to an unknown sender) gets no second one.
"""
from __future__ import annotations

import logging
import re

from actors.turn.opening import Opening
from desk.outbound.introduction import INTRODUCED_CHANNELS, introduce_once, introduced
from spine.envelope import MessageEnvelope
from spine.intent.language import Language, language_of
from spine.repo import Spine
from spine.store import StoreError

log = logging.getLogger("clara.introduce")
SAYS_AI = re.compile(r"\b(?:AI|IA)\b")


async def introduce(spine: Spine, env: MessageEnvelope, person_id: str | None, opening: Opening | None,
                    reply: str) -> str:
    """The reply, with the introduction when it is the first message Clara authors to the person."""
    if env.origin != "inbound" or person_id is None or not reply or env.channel not in INTRODUCED_CHANNELS:
        return reply
    if opening is not None and opening.introduced:
        return reply
    try:
        first = await introduce_once(spine, person_id)
    except StoreError as exc:  # the reply matters more; the next reply asks again
        log.warning("introduction of %s not checked: %s", person_id, exc)
        return reply
    if opening is not None:
        opening.introduced = True
    if not first or SAYS_AI.search(reply):
        return reply
    prop = await spine.get_property(env.property_id)  # reference data: cached
    return introduced(reply, _language(reply, opening), prop.name if prop else None)


def _language(reply: str, opening: Opening | None) -> str | None:
    """The language the reply is written in (the model chose it), a short one leaning on what is
    known of the person."""
    noted = opening.contact_noted[2] if opening is not None and opening.contact_noted else None
    person = opening.person if opening is not None else None
    known = (noted or (person.language if person is not None else None) or "")[:2]
    prior: Language | None = "es" if known == "es" else "en" if known == "en" else None
    return language_of(reply, prior=prior) or prior
