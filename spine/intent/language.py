"""Which language a message is written in, English or Spanish: Clara answers in the caller's.

Lingua (`lingua-language-detector`), a detector made for short texts (character n-grams, not
word lists), restricted to the two languages served. A word list misread "stop texting me" as
Spanish ("me" is a Spanish word too: issue 40 item 14). A very short message (a few words) that
does not lean clearly either way keeps the conversation's language (`prior`); with no prior it
leans nowhere (None) and the caller keeps what it knew. Text with no letters ("ok" aside: "10",
"WO-42", an emoji) leans nowhere.

The detector is built once, on first use (the languages' models load then: about 0.5 s and some
90 MiB resident, measured here), and a call then takes about 0.1 ms (a text read again within a
turn, or lately, is not detected again).
"""
from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import Literal

from lingua import Language as Lingua
from lingua import LanguageDetector, LanguageDetectorBuilder

Language = Literal["en", "es"]

_WORD = re.compile(r"[^\W\d_]+")  # letters only: digits, emoji and punctuation say nothing
_NUMBERED = re.compile(r"\S*\d\S*")  # "WO-42", "10am", "204b": a reference or a time, in either language
_CODES: dict[Lingua, Language] = {Lingua.ENGLISH: "en", Lingua.SPANISH: "es"}
SHORT_WORDS = 3  # up to this many words a message is "very short": the conversation's language is the prior
PRIOR_WEIGHT = 0.6  # the prior's odds on a very short message: 0.6 : 0.4 for the conversation's language
SHORT_LEANS = 0.6  # a very short message with no prior leans only with this share of the confidence
# PRIOR_WEIGHT and SHORT_LEANS were chosen on tests/data/language_short.jsonl (the fewest errors of a
# small grid), so its accuracy is not a held-out figure: the table guards against regressions.
_NEUTRAL = frozenset({"ok", "okay", "k", "kk"})  # said the same in both: never a switch of language


@cache
def detector() -> LanguageDetector:
    """Built once per process, lazily: importing this module loads no model."""
    return LanguageDetectorBuilder.from_languages(*_CODES).build()


@lru_cache(maxsize=256)
def _confidences(words: str) -> tuple[tuple[Language, float], ...]:
    """Lingua's confidences, per language. Kept for the last few hundred texts: a turn reads its
    message more than once (the contact's language; the offline model at each of its calls)."""
    return tuple((_CODES[c.language], c.value) for c in detector().compute_language_confidence_values(words))


def detect_language(text: str, default: Language = "en") -> Language:
    """The language the message leans to (the conversation's `default` as the prior), else `default`."""
    return language_of(text, prior=default) or default


def language_in(text: str, so_far: str) -> Language:
    """The language of a message in a conversation: the message's lean, with the language of what
    the person said before it (`so_far`) as the prior of a very short message and the answer when
    it leans nowhere. `so_far` is read only then: a longer message decides alone, and detecting a
    whole conversation costs several times a message's detection (its text is longer)."""
    words = _words(text)
    if len(words) > SHORT_WORDS:
        return _lean(words, None) or detect_language(so_far)
    prior = detect_language(so_far)
    return _lean(words, prior) or prior


def language_of(text: str, prior: Language | None = None) -> Language | None:
    """The language the message leans to, or None when it does not lean (no letters, or a very
    short message with no clear lead and no `prior`)."""
    return _lean(_words(text), prior)


def _words(text: str) -> list[str]:
    return _WORD.findall(_NUMBERED.sub(" ", (text or "").lower()))


def _lean(words: list[str], prior: Language | None) -> Language | None:
    if not words or all(w in _NEUTRAL for w in words):
        return None
    values = dict(_confidences(" ".join(words)))
    short = len(words) <= SHORT_WORDS
    if short and prior is not None:
        values = {code: value * (PRIOR_WEIGHT if code == prior else 1 - PRIOR_WEIGHT) for code, value in values.items()}
    total = sum(values.values())
    leader = max(values, key=lambda code: values[code])
    share = values[leader] / total if total else 0.5
    return leader if share > (SHORT_LEANS if short and prior is None else 0.5) else None
