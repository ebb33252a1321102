"""The intent-hint second opinion: the fast model (Haiku on Anthropic) decides "is this unknown
sender asking about renting here?" for the messages the shipped classifier is unsure of, promoting
as well as vetoing.

If the model is unavailable, or answers something that is neither yes nor no, the confirmer
raises and the router keeps the classifier's own verdict: an outage of the fast model changes
nothing about who gets help.
"""
from __future__ import annotations

import logging
import re

from actors.model.base import ModelBackend, ModelRequest, ModelUnavailable
from spine.intent.hints import IntentConfirmer

log = logging.getLogger(__name__)

CONFIRM_SYSTEM = (
    "You screen text messages sent to an apartment community's phone line from numbers we do not know. "
    "Decide whether the sender is plausibly a prospective renter asking about renting here: availability, "
    "bedrooms, move-in dates, tours, pricing or applying. Advertisers, spam, wrong numbers and current "
    "residents reporting problems are not. Answer with exactly one word: yes or no."
)
ANSWER = re.compile(r"^\W*(yes|no)\b", re.IGNORECASE)
MESSAGE_CHARS = 1000


def confirm_request(message: str) -> ModelRequest:
    # The message is data, fenced in tags, so the sender's words cannot pose as instructions.
    fenced = message[:MESSAGE_CHARS].replace("</message>", "")
    return ModelRequest(purpose="confirm", max_tokens=5, system=[{"type": "text", "text": CONFIRM_SYSTEM}],
                        messages=[{"role": "user", "content": f"<message>{fenced}</message>\nProspective renter?"}])


def parse_answer(text: str) -> bool | None:
    match = ANSWER.match(text)
    return None if match is None else match.group(1).lower() == "yes"


def model_confirmer(backend: ModelBackend) -> IntentConfirmer:
    async def confirm(message: str) -> bool:
        try:
            response = await backend.complete(confirm_request(message))
        except ModelUnavailable as exc:
            log.warning("intent confirm unavailable, keeping the classifier's verdict: %s", exc)
            raise
        verdict = parse_answer(response.text())
        if verdict is None:
            raise ModelUnavailable(f"intent confirm answered neither yes nor no ({response.text()[:40]!r})")
        return verdict

    return confirm
