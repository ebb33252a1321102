"""The intent-hint confirmer: a cheap second opinion (Haiku on Anthropic) on "is this unknown
sender asking about renting here?", asked only after the English regex hints already fired.

It fails OPEN: if the model is unavailable, or answers something that is neither yes nor no, the
answer is yes. The regex hints are conservative and have already fired, so the likely truth is a
prospect; a wrong "yes" costs one prospect skeleton (source router_mint, confidence inferred,
visible in the trace), while a wrong "no" puts a would-be renter in the wrong-number lane and loses
a lead. An outage of the fast model must not change who gets help.
"""
from __future__ import annotations

import logging
import re

from actors.model.base import ModelBackend, ModelRequest, ModelUnavailable
from spine.intent_hints import IntentConfirmer

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
            log.warning("intent confirm unavailable, keeping the regex verdict: %s", exc)
            return True
        verdict = parse_answer(response.text())
        if verdict is None:
            log.warning("intent confirm answered neither yes nor no (%r); keeping the regex verdict",
                        response.text()[:40])
            return True
        return verdict

    return confirm
