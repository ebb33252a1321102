"""What a message names that the store can look up: work orders (`WO-7`) and a bedroom count.
The one reader of each, so that the speculative prefetch (tools.prefetch) guesses the very call
the offline model (actors.model.offline) then makes. English and Spanish, case-insensitive."""
from __future__ import annotations

import re

from spine.work import spell_display_id

# A work order is `WO-n`, n from the store's gap-free counter (WO-7, WO-42, WO-812): any number of
# digits a counter reaches in practice, written "WO-7", "wo 7", "WO#7", "work order #42", "WO-007".
WORK_ORDER = re.compile(r"\b(?:wo|work\s*order)\s*[-_#:]?\s*#?\s*(\d{1,9})\b", re.IGNORECASE)

BEDROOM_WORDS = {"studio": 0, "estudio": 0, "one": 1, "two": 2, "three": 3, "four": 4,
                 "una": 1, "un": 1, "dos": 2, "tres": 3, "cuatro": 4}
BEDROOMS = re.compile(
    r"\b(\d|one|two|three|four|una|un|dos|tres|cuatro)\s*-?\s*(?:br|bd|bdr|bdrm|beds?|bedrooms?|rec[aá]maras?|"
    r"habitaciones|habitaci[oó]n|cuartos?|dormitorios?)s?\b|\b(studio|estudio)s?\b", re.IGNORECASE)


def work_order_ids(text: str) -> list[str]:
    """The work orders named, as display ids (`WO-42`), first mention first, each once."""
    return list(dict.fromkeys(spell_display_id(int(n)) for n in WORK_ORDER.findall(text)))


def without_work_orders(text: str) -> str:
    """The text with its work-order mentions blanked (so "WO-204" is not read as unit 204)."""
    return WORK_ORDER.sub(" ", text)


def bedrooms(text: str) -> int | None:
    """The first bedroom count named ("2BR", "two bedrooms", "dos recámaras"; a studio is 0)."""
    match = BEDROOMS.search(text)
    if match is None:
        return None
    word = (match.group(1) or match.group(2)).lower()
    return BEDROOM_WORDS[word] if word in BEDROOM_WORDS else int(word)
