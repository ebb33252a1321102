"""End-of-interaction personContext refresh (ADR "personContext", Fork B2: async, idempotent).

Keyed on (person_id, interaction_id): a replay writes nothing. Trivial interactions ("thanks",
"ok") are skipped. The summary is written by the fast model (Haiku on Anthropic, a deterministic
summary offline) and capped at 800 tokens; the active pointers come from the store, no model.
"""
from __future__ import annotations

import logging
import re
from collections.abc import Sequence

from actors.model.base import ModelBackend, ModelRequest, ModelUnavailable
from spine import keys
from spine.context import SUMMARY_TOKEN_CAP, PersonContext, estimate_tokens
from spine.context_build import build_active_pointers
from spine.identity import utcnow
from spine.records import TranscriptEntry
from spine.repo import Spine

log = logging.getLogger("clara.context_refresh")

_TRIVIAL = re.compile(r"^\s*(ok(ay)?|k|thanks?( you)?|thx|ty|cool|great|got it|sounds good|yes|no|bye|👍|🙏)[\s.!]*$",
                      re.IGNORECASE)

REFRESH_SYSTEM = (
    "You maintain a short memory of one person for Clara, a property management assistant. "
    "Given the previous summary and the latest conversation, write an updated summary of at most "
    "150 words: who they are to the property, what they asked, what was done (work orders, tours, "
    "renewals, escalations) and anything still pending. Facts only; no greetings."
)


def transcript_lines(transcript: Sequence[TranscriptEntry]) -> list[tuple[str, str]]:
    """(role, text) pairs of what was said, blank entries left out."""
    return [(entry.role, entry.text.strip()) for entry in transcript if entry.text.strip()]


def is_trivial(transcript: Sequence[TranscriptEntry]) -> bool:
    said = [text for role, text in transcript_lines(transcript) if role == "user"]
    return not said or all(_TRIVIAL.match(text) for text in said)


def cap_summary(text: str) -> str:
    limit = SUMMARY_TOKEN_CAP * 4
    return text if estimate_tokens(text) <= SUMMARY_TOKEN_CAP else text[: limit - 1].rstrip() + "…"


async def _summarize(model: ModelBackend, previous: PersonContext | None,
                     transcript: Sequence[TranscriptEntry]) -> str | None:
    convo = "\n".join(f"{role}: {text}" for role, text in transcript_lines(transcript))
    prior = previous.summary if previous and not previous.is_fresh else "(none)"
    request = ModelRequest(purpose="refresh", max_tokens=400, system=[{"type": "text", "text": REFRESH_SYSTEM}],
                           messages=[{"role": "user", "content": f"Previous summary: {prior}\n\nConversation:\n{convo}"}])
    try:
        return (await model.complete(request)).text() or None
    except ModelUnavailable as exc:
        log.warning("context refresh summary skipped: %s", exc)
        return None


async def refresh_person_context(spine: Spine, model: ModelBackend, person_id: str, interaction_id: str,
                                 transcript: Sequence[TranscriptEntry]) -> bool:
    """True if this call wrote the refreshed context; False on a replay or a trivial interaction."""
    key = keys.refresh_marker(person_id, interaction_id)
    if not person_id or is_trivial(transcript) or await spine.store.get(keys.once(key)) is not None:
        return False
    previous = await spine.get_context(person_id)
    summary = await _summarize(model, previous, transcript)
    active = await build_active_pointers(spine, person_id)
    trace = await spine.get_trace(interaction_id)
    active.last_interaction_id = interaction_id
    active.last_interaction_at = trace.started_at if trace else utcnow()
    active.last_channel = trace.channel if trace else None
    if summary is None:
        summary = previous.summary if previous else PersonContext(person_id=person_id).summary
    summary = cap_summary(summary)
    if not await spine.mark_once(key):
        return False  # a concurrent replay won the race
    await spine.put_context(PersonContext(person_id=person_id, refreshed_at=utcnow(), summary=summary,
                                          active=active, token_estimate=estimate_tokens(summary)))
    return True
