"""The one emergency vocabulary: what counts as an emergency happening now, in English and Spanish.

The safety net (prompts.safety), the offline model and speculative prefetch all ask
`detect_emergency`, so they never disagree about a message. An emergency is active water
intrusion (through a ceiling, flooding, water everywhere), gas, fire or smoke, sparking or
burning wiring, a carbon-monoxide alarm, or a threat to someone's safety. Routine words that
merely mention those things are not: a fire drill, an extinguisher inspection, a smoke-detector
battery chirp, a gas bill, a flood of emails. Those are removed before anything is matched. Nor
is a fire or flood told as past, weeks back, with nothing said of now (spine.intent.past_disaster: "our
unit flooded last month and the floors are still warped" is a repair, not a page).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict

from spine.intent.past_disaster import without_past_disasters
from spine.intent.patterns import rx

EmergencyKind = Literal["threat", "fire", "gas", "carbon_monoxide", "electrical", "flood"]

BRIEFS: dict[EmergencyKind, str] = {
    "threat": "safety threat", "fire": "fire or smoke", "gas": "possible gas leak",
    "carbon_monoxide": "carbon monoxide alarm", "electrical": "sparking / electrical hazard",
    "flood": "active water intrusion",
}
# Damage to the building itself: besides the escalation, a work order at emergency priority.
BUILDING_EMERGENCIES: frozenset[EmergencyKind] = frozenset({"gas", "carbon_monoxide", "electrical", "flood"})


class EmergencyMatch(BaseModel):
    model_config = ConfigDict(frozen=True)  # shared by every caller of the cached detect_emergency

    kind: EmergencyKind
    matched: str

    @property
    def brief(self) -> str:
        return BRIEFS[self.kind]


# Routine talk that contains emergency words; blanked out before matching.
_ROUTINE = rx(
    r"\bfire\s+(?:drills?|extinguishers?|inspections?|codes?|alarm\s+(?:test|testing|inspection)s?|marshal)\b",
    r"\b(?:extinguishers?|extintor(?:es)?)\b[^.!?]{0,40}",
    r"\bsmoke\s+(?:detector|alarm)s?\b[^.!?]{0,30}\b(?:batter(?:y|ies)|chirp\w*|beep\w*\s+(?:every|once)|"
    r"low\s+batter\w*|replace\w*)\b",
    r"\b(?:chirp\w*|beep\w*)\b[^.!?]{0,30}\bsmoke\s+(?:detector|alarm)s?\b",
    r"\bsimulacros?\s+de\s+incendios?\b", r"\bbater[ií]a\s+del\s+detector\s+de\s+humo\b",
    r"\bdetector\s+de\s+humo\b[^.!?]{0,30}\b(?:bater[ií]a|pita|pitando)\b",
    r"\bflood(?:ed|ing)?\s+(?:of|with)\s+(?:e-?mails?|calls?|messages?|texts?|requests?|orders?|work|spam|"
    r"notifications?|applications?)\b", r"\bflood\s+insurance\b", r"\bgas\s+(?:station|bill|stove|range|dryer|grill)s?\b",
)

_ROOM = (r"(?:hallway|hall|stairwell|stairs|stairway|building|apartment|unit|kitchen|bedroom|bathroom|basement|"
         r"garage|laundry(?:\s+room)?|lobby|elevator|room|house|attic|ceiling|walls?|vents?|outlet|dryer|oven|stove|"
         r"heater|furnace)")
_CUARTO = (r"(?:pasillo|edificio|departamento|apartamento|depa|cocina|cuarto|s[oó]tano|escaleras?|casa|rec[aá]mara|"
           r"garaje|lavander[ií]a|elevador|ascensor|ba[nñ]o)")
_NOT_A_SMOKERS = r"(?![^.!?]{0,40}\b(?:smoking|smokes|cigarettes?|cigars?|weed|vap(?:e|ing)|tobacco)\b)"
_PATTERNS: tuple[tuple[EmergencyKind, re.Pattern[str]], ...] = (  # deadliest first: it names the match
    ("threat", rx(
        r"\b(?:someone|somebody|a\s+(?:man|woman|guy|person)|he|she|they)\s+(?:has|have|had|with|'s\s+got|is\s+holding|"
        r"pulled)\s+(?:a\s+)?(?:gun|knife|weapon)\b",
        r"\b(?:gun|knife|weapon)s?\s+(?:pointed|drawn)\b", r"\bbreak[\s-]?in\s+(?:in\s+progress|right\s+now|happening)\b",
        r"\b(?:someone|somebody|a\s+(?:man|guy|person))\s+(?:is\s+)?(?:breaking|trying\s+to\s+break|broke)\s+in\b",
        r"\bintruder\b", r"\bthreaten\w*\s+(?:to\s+(?:kill|hurt|shoot|stab)|me|us|my)\b", r"\bbeing\s+attacked\b",
        r"\bshots?\s+fired\b", r"\bgunshots?\b", r"\bhe'?s\s+going\s+to\s+(?:kill|hurt)\b",
        r"\b(?:tiene|trae|con)\s+una?\s+(?:pistola|arma|cuchillo|navaja)\b", r"\bintrus[oa]\b",
        r"\b(?:alguien|un\s+hombre)\s+(?:est[aá]\s+)?(?:tratando\s+de\s+)?(?:entrar|meterse)\s+a\s+la\s+fuerza\b",
        r"\bme\s+amenaz[oó]\b", r"\bdisparos\b", r"\bbalazos\b",
    )),
    ("fire", rx(
        r"\b(?:a|the|there'?s\s+a|there\s+is\s+a|house|kitchen|grease|apartment|building|electrical)\s+fire\b",
        r"\bfire\s+(?:in|on|at|is\s+spreading|spreading|started|broke\s+out)\b", r"(?<!i'm )(?<!i am )\bon\s+fire\b",
        r"\bflames?\b", r"\bsmoke\s+(?:is\s+)?(?:coming|pouring|billowing|filling|everywhere)\b",
        r"\b(?:full\s+of|filling\s+(?:up\s+)?with)\s+smoke\b", r"\bsmell\w*\s+smoke\b",
        r"\b(?:smoke|fire)\s+and\s+(?:smoke|fire|flames)\b", r"\b(?:fire|smoke)\s+(?:is\s+)?coming\s+(?:from|out)\b",
        r"\b(?:fire|smoke)\s+alarms?\s+(?:is\s+|are\s+)?(?:going\s+off|blaring|sounding)\b",
        r"\bincendio\b", r"\bhay\s+fuego\b", r"\bse\s+est[aá]\s+quemando\b", r"\bllamas\b",
        r"\b(?:sale|saliendo|mucho|lleno\s+de|huele\s+a)\s+humo\b", r"\bhumo\s+(?:por\s+todas\s+partes|saliendo)\b",
        # Smoke seen now, not a smoker's ("cigarette smoke in the hallway" is a complaint, not a page).
        r"\b(?:there'?s|there\s+is|i\s+see|we\s+see|i\s+can\s+see|seeing)\s+(?:some\s+|a\s+lot\s+of\s+|lots\s+of\s+)?"
        r"smoke\b(?![\s-]*(?:free|detectors?|alarms?)\b)" + _NOT_A_SMOKERS,
        r"(?<!cigarette )(?<!cigar )(?<!weed )(?<!pot )(?<!tobacco )(?<!vape )\bsmoke\s+(?:in|under|through|from)\s+"
        r"(?:the|my|our|a)\s+" + _ROOM + r"\b" + _NOT_A_SMOKERS,
        r"\bhay\s+(?:mucho\s+)?humo\b(?!\s+de\s+(?:cigarr\w*|tabaco|mota|marihuana))",
        r"\bhumo\s+en\s+(?:el|la|mi|nuestr[oa])\s+" + _CUARTO + r"\b",
    )),
    ("carbon_monoxide", rx(
        r"\bcarbon\s+monoxide\b", r"\bco\s+(?:alarm|detector)s?\s+(?:is\s+|are\s+)?(?:going\s+off|beeping|sounding)\b",
        r"\bmon[oó]xido\s+de\s+carbono\b", r"\balarma\s+de\s+mon[oó]xido\b",
    )),
    ("gas", rx(
        r"\bsmell\w*\s+(?:of\s+|like\s+)?(?:natural\s+)?gas\b", r"\bgas\s+(?:smell|odou?r|leak\w*)\b",
        r"\bgas\s+(?:is\s+)?leaking\b", r"\bleaking\s+gas\b", r"\brotten\s+eggs?\s+smell\b",
        r"\bsmell\w*\s+(?:like\s+)?rotten\s+eggs?\b",
        r"\bhuele\s+(?:mucho\s+)?a\s+gas\b", r"\bolor\s+a\s+gas\b", r"\bfuga\s+de\s+gas\b",
    )),
    ("electrical", rx(
        r"\bsparking\b", r"\bsparks?\b[^.!?]{0,30}\b(?:outlet|wire|wiring|panel|breaker|switch|socket|plug|light)\b",
        r"\b(?:outlet|wire|wiring|panel|breaker|switch|socket|plug)s?\b[^.!?]{0,30}\b(?:sparks?|sparking|smoking|"
        r"melting|burning)\b",
        r"\bburning\s+(?:smell|plastic|wires?)\b", r"\bsmell\w*\s+(?:like\s+)?(?:something\s+)?burning\b",
        r"\bsomething(?:'s|\s+is)\s+burning\b", r"\belectrocut\w*\b", r"\bexposed\s+(?:live\s+)?wires?\b",
        r"\bchispas?\b", r"\bchispea\w*\b", r"\bcables?\s+(?:expuestos?|pelados?)\b", r"\bhuele\s+a\s+quemado\b",
    )),
    ("flood", rx(
        r"\bflood(?:ing|ed|s)?\b",
        r"\bwater\b[^.!?]{0,40}\b(?:pouring|gushing|spraying|everywhere|rising|coming\s+(?:in|through)|flooding)\b",
        r"\b(?:leak\w*|drip\w*|pour\w*|coming|water)\s+(?:in\s+)?(?:through|from)\s+(?:the\s+|my\s+)?ceiling\b",
        r"\bceiling\b[^.!?]{0,30}\b(?:leaking|pouring|caving|collapsing|falling)\b",
        r"\b(?:getting|going|spreading)\s+everywhere\b", r"\b(?:burst|broken|exploded)\s+(?:water\s+)?pipe\b",
        r"\bpipe\s+(?:burst|exploded)\b",
        r"\binund\w+\b", r"\bagua\s+por\s+todas\s+partes\b", r"\b(?:entra|cae|sale)\s+(?:mucha\s+)?agua\s+(?:por|del)\s+"
        r"(?:el\s+)?techo\b", r"\bagua\b[^.!?]{0,30}\btecho\b", r"\btuber[ií]a\s+(?:rota|revent\w*)\b",
        r"\bse\s+revent[oó]\s+(?:una\s+|la\s+)?tuber[ií]a\b",
    )),
)


def normalize(message: str) -> str:
    """One spacing, straight apostrophes: the form every vocabulary in the gateway matches."""
    return " ".join((message or "").split()).replace("\u2019", "'")


# A turn asks detect_emergency of the same words three times (the offline model's reading, the
# prefetch, the safety net), and the patterns cost ~30 us a time: answers for texts up to this long
# are kept (an email can be far longer, and is read every time).
KEPT_CHARS = 1600  # ten SMS segments


def detect_emergency(message: str) -> EmergencyMatch | None:
    """The first (deadliest) emergency this message reports as happening now, or None."""
    return _detect_kept(message) if len(message or "") <= KEPT_CHARS else _detect(message)


def _detect(message: str) -> EmergencyMatch | None:
    text = _ROUTINE.sub(" ", normalize(message))
    found = _first(text)
    if found is not None and (rest := without_past_disasters(text)) is not None:
        return _first(rest)  # a fire or flood weeks back is no emergency; one now still is
    return found


def _first(text: str) -> EmergencyMatch | None:
    for kind, pattern in _PATTERNS:
        found = pattern.search(text)
        if found:
            return EmergencyMatch(kind=kind, matched=found.group(0))
    return None


_detect_kept = lru_cache(maxsize=1024)(_detect)
