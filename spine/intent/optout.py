"""A plain request to stop being messaged, in English or Spanish: the one detector every channel
asks before a turn (SMS, email, Telegram), beside the carriers' keywords.

Why not only the keywords: the FCC's consent-revocation rule (47 CFR 64.1200(a)(10)) requires
honouring an opt-out made by any reasonable means, so "stop texting me" or "no me escriban más"
must opt the person out as STOP does. The patterns ask for a verb of messaging aimed at the
writer ("stop texting ME", "no ME escriban"), so "I can't stop the leak", "stop by at 3" or "my
neighbour won't stop texting me" stay ordinary messages. A long message that only mentions
stopping is a conversation, not a request: the request must be most of the message.
"""
from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel

Language = Literal["en", "es"]

# Verbs of reaching someone in writing (and calling: revoking consent covers calls too).
_EN_VERB = (r"(?:text(?:ing)?|messag(?:e|ing)|e-?mail(?:ing)?|contact(?:ing)?|writ(?:e|ing)|call(?:ing)?|"
            r"send(?:ing)?\s+(?:me\s+)?(?:any\s+)?(?:more\s+)?(?:texts?|messages?|e-?mails?|stuff))")
_EN_MORE = r"(?:texts?|messages?|e-?mails?|sms|notifications?)"
# What may stand before "stop" in a request ("please stop", "can you stop"); a subject that is
# someone else ("he won't stop", "it doesn't stop") is not a request to us.
_NOT_A_REQUEST = re.compile(r"\b(?:won'?t|wont|doesn'?t|don'?t|didn'?t|can'?t|cant|couldn'?t|never|keeps?|"
                            r"not|he|she|they|it)\s+(?:\w+\s+)?$", re.I)

_EN = [
    rf"\bstop\s+(?:all\s+)?(?:the\s+)?(?:{_EN_VERB})\b(?:\s+(?:me|us)\b)?",
    rf"\bstop\s+(?:all\s+)?(?:the\s+|these\s+|your\s+)?{_EN_MORE}\b",
    rf"\b(?:do\s*n[o']?t|do\s+not|never)\s+(?:ever\s+)?{_EN_VERB}\s+(?:me|us)\b",
    rf"\bno\s+more\s+{_EN_MORE}\b",
    r"\bunsubscribe\b",
    r"\bopt\s*(?:me\s+)?out\b",
    r"\b(?:take|remove|delete)\s+(?:me|my\s+(?:number|email|e-mail))\s+(?:off|from)\b",
    r"\bleave\s+me\s+alone\b",
    rf"\bi\s+(?:do\s*n[o']?t|do\s+not|no\s+longer)\s+want\s+(?:any\s+)?(?:more\s+)?(?:your\s+|these\s+)?{_EN_MORE}\b",
    rf"\bquit\s+{_EN_VERB}\s+me\b",
    r"^\W*(?:please\s+)?stop(?:\s+(?:please|now|it|already|thanks|thank\s+you))*\W*$",
]
# Commands and wishes only ("no me escriban"), never a past ("no me escribieron" is a complaint).
_ES_VERB = r"(?:escriba[ns]?|mande[ns]?|env[ií]e[ns]?|contacte[ns]?|textee[ns]?|llame[ns]?|mensajee[ns]?)"
_ES_MORE = r"(?:mensajes?|textos?|correos?|sms|notificaciones?|emails?)"
_ES = [
    rf"\bno\s+me\s+{_ES_VERB}\b",
    r"\bno\s+me\s+vuelva[ns]?\s+a\s+(?:escribir|mandar|enviar|contactar|textear|llamar)\b",
    rf"\bno\s+(?:m[aá]s|quiero\s+m[aá]s)\s+{_ES_MORE}\b",
    r"\bdej(?:en|a|e|ar)\s+de\s+(?:escribir|mandar|enviar|contactar|textear|llamar)\w*",
    rf"\b(?:ya\s+)?no\s+quiero\s+(?:recibir\s+)?(?:m[aá]s\s+)?(?:sus\s+|tus\s+|estos\s+)?{_ES_MORE}\b",
    r"\b(?:d[aá](?:me|rme)|den(?:me)?|quiero\s+darme)\s+de\s+baja\b",
    r"\bdesuscrib\w*|\bcancelar\s+(?:la\s+)?suscripci[oó]n\b",
    rf"\bbasta\s+de\s+{_ES_MORE}\b",
    r"^\W*(?:por\s+favor\s+)?(?:alto|parar|basta)(?:\s+por\s+favor)?\W*$",
]
_PATTERNS: list[tuple[re.Pattern[str], Language]] = (
    [(re.compile(p, re.I), "en") for p in _EN] + [(re.compile(p, re.I), "es") for p in _ES])
MAX_WORDS = 30  # longer: a message about something else that mentions stopping; the turn answers it


class OptOutRequest(BaseModel):
    language: Language
    phrase: str  # what matched, for the event's reason (never the whole message)


def opt_out_request(text: str) -> OptOutRequest | None:
    """The request to stop in `text`, or None when it is an ordinary message."""
    body = " ".join((text or "").replace("’", "'").split())
    if not body or len(body.split()) > MAX_WORDS:
        return None
    for pattern, language in _PATTERNS:
        for match in pattern.finditer(body):
            if language == "en" and _NOT_A_REQUEST.search(body[:match.start()]):
                continue  # "won't stop texting me": someone else, not a request to us
            return OptOutRequest(language=language, phrase=match.group(0).strip().lower()[:60])
    return None
