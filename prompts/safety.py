"""A deterministic safety net under L0's safety rule.

The model is told to nudge 911 and escalate on an emergency; this catches the turn where it does
not. The agent loop runs `detect_emergency` on every inbound (the 'other' lane included) and, on a
match, forces an escalate_to_human call and prepends EMERGENCY_NUDGE. Patterns want an emergency
*happening now*: "gas station", "fired up", "firewood" or "a flood of emails" do not match.
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

EmergencyKind = Literal["gas", "fire", "flood", "electrical", "threat"]

EMERGENCY_NUDGE = ("If anyone is in danger, call 911 now and get to a safe place. "
                   "I'm alerting the property's emergency team right away.")


class EmergencyMatch(BaseModel):
    kind: EmergencyKind
    matched: str


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(parts), re.IGNORECASE)


_GAS = _rx(
    r"\bsmell\w*\s+(?:of\s+|like\s+)?(?:natural\s+)?gas\b", r"\bgas\s+(?:smell|odou?r|leak\w*)\b",
    r"\bgas\s+(?:is\s+)?leaking\b", r"\bleaking\s+gas\b", r"\brotten\s+eggs?\s+smell\b", r"\bsmell\w*\s+(?:like\s+)?rotten\s+eggs?\b",
    r"\bcarbon\s+monoxide\b", r"\bco\s+(?:alarm|detector)\s+(?:is\s+)?(?:going\s+off|beeping|sounding)\b",
)
_FIRE = _rx(
    r"\b(?:a|the|there'?s\s+a|there\s+is\s+a|house|kitchen|grease|apartment|building|electrical)\s+fire\b(?!\s+(?:drill|extinguisher|inspection|code))",
    r"\bfire\s+(?:in|on|at|is\s+spreading|spreading|started|broke\s+out)\b", r"(?<!i'm )(?<!i am )\bon\s+fire\b",
    r"\bflames?\b", r"\bsmoke\s+(?:is\s+)?(?:coming|pouring|billowing|filling|everywhere)\b",
    r"\b(?:smoke|fire)\s+and\s+(?:smoke|fire|flames)\b", r"\b(?:fire|smoke)\s+(?:is\s+)?coming\s+(?:from|out)\b",
    r"\b(?:full\s+of|filling\s+(?:up\s+)?with)\s+smoke\b", r"\bsmell\w*\s+smoke\b", r"\bfire\s+alarm\s+(?:is\s+)?going\s+off\b",
)
_FLOOD = _rx(
    r"\bflood(?:ing|ed|s)?\b(?!\s+(?:of|with)\s+(?:e-?mails?|calls?|messages?|texts?|requests?|orders?|work|spam|notifications?|applications?))",
    r"\bwater\b[^.!?]{0,40}\b(?:pouring|gushing|spraying|everywhere|rising|coming\s+(?:in|through)|flooding)\b",
    r"\b(?:burst|broken|exploded)\s+(?:water\s+)?pipe\b", r"\bpipe\s+(?:burst|exploded)\b",
    r"\bceiling\s+(?:is\s+)?(?:caving|collapsing|falling)\b",
)
_ELECTRICAL = _rx(
    r"\bsparking\b", r"\bsparks?\b[^.!?]{0,30}\b(?:outlet|wire|wiring|panel|breaker|switch|socket|plug|light)\b",
    r"\b(?:outlet|wire|wiring|panel|breaker|switch|socket|plug)s?\b[^.!?]{0,30}\b(?:sparks?|sparking|smoking|melting|burning)\b",
    r"\bburning\s+(?:smell|plastic|wires?)\b", r"\bsmell\w*\s+(?:like\s+)?(?:something\s+)?burning\b",
    r"\bsomething(?:'s|\s+is)\s+burning\b", r"\belectrocut\w*\b",
    r"\bexposed\s+(?:live\s+)?wires?\b",
)
_THREAT = _rx(
    r"\b(?:someone|somebody|a\s+(?:man|woman|guy|person)|he|she|they)\s+(?:has|have|had|with|'s\s+got|is\s+holding|pulled)\s+(?:a\s+)?(?:gun|knife|weapon)\b",
    r"\b(?:gun|knife|weapon)s?\s+(?:pointed|drawn)\b", r"\bbreak[\s-]?in\s+(?:in\s+progress|right\s+now|happening)\b",
    r"\b(?:someone|somebody|a\s+(?:man|guy|person))\s+(?:is\s+)?(?:breaking|trying\s+to\s+break|broke)\s+in\b",
    r"\bintruder\b", r"\bthreaten\w*\s+(?:to\s+(?:kill|hurt|shoot|stab)|me|us|my)\b", r"\bbeing\s+attacked\b",
    r"\bshots?\s+fired\b", r"\bgunshots?\b", r"\bhe'?s\s+going\s+to\s+(?:kill|hurt)\b",
)

# Checked in this order: the deadliest kind names the match when a message hits several.
_PATTERNS: tuple[tuple[EmergencyKind, re.Pattern[str]], ...] = (
    ("threat", _THREAT), ("fire", _FIRE), ("gas", _GAS), ("electrical", _ELECTRICAL), ("flood", _FLOOD),
)


def detect_emergency(message: str) -> EmergencyMatch | None:
    """The first emergency this message reports, or None."""
    text = " ".join((message or "").split()).replace("\u2019", "'")
    for kind, pattern in _PATTERNS:
        found = pattern.search(text)
        if found:
            return EmergencyMatch(kind=kind, matched=found.group(0))
    return None
