"""Twilio's reserved keywords. Matched as Twilio matches them: the whole message is the one
word, any case, surrounding whitespace ignored ("STOP please" is an ordinary message).
Twilio's default opt-out list also has REVOKE and OPTOUT, so they count here too. An opt-in word
is a keyword only from a number that is opted out: Clara asks yes/no questions, and "Yes" from
anyone else is an answer that runs a turn (gateway.sms.handler)."""
from __future__ import annotations

from enum import StrEnum


class Keyword(StrEnum):
    OPT_OUT = "opt_out"
    OPT_IN = "opt_in"
    HELP = "help"


OPT_OUT_WORDS = frozenset({"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"})
OPT_IN_WORDS = frozenset({"START", "YES", "UNSTOP"})
HELP_WORDS = frozenset({"HELP", "INFO"})


def classify_keyword(body: str) -> Keyword | None:
    word = (body or "").strip().upper()
    if word in OPT_OUT_WORDS:
        return Keyword.OPT_OUT
    if word in OPT_IN_WORDS:
        return Keyword.OPT_IN
    if word in HELP_WORDS:
        return Keyword.HELP
    return None


def help_text(property_name: str | None) -> str:
    where = f" at {property_name}" if property_name else ""
    return (f"Clara{where}: I'm the property's AI assistant. Text your question or maintenance "
            "request any time. For a fire, gas smell or other emergency call 911 first. "
            "Reply STOP to opt out, START to opt back in.")
