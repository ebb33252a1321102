"""A prospect with a booked tour writing about its timing ("running late", "need to reschedule"),
often in answer to Clara's reminder: the tour in personContext is what the offline model answers
from. It books nothing and tells nobody: it says what the tour is and how to move it."""
from __future__ import annotations

from datetime import datetime

from actors.model.offline.entities import Entities
from actors.model.offline.plans import Intent, Plan
from actors.model.offline.reading import Reading
from actors.model.offline.sentences_work import pick
from spine.intent.patterns import rx

TOUR_TIMING = rx(r"\brunning\s+(?:a\s+(?:bit|little)\s+|about\s+\d+\s+\w+\s+)?late\b", r"\bbe\s+(?:a\s+bit\s+)?late\b",
                 r"\breschedul\w*", r"\bcan'?t\s+make\s+it\b", r"\b(?:llego|voy|vamos)\s+(?:un\s+poco\s+)?tarde\b",
                 r"\breprogramar\b", r"\bcambiar\s+(?:la\s+)?(?:visita|cita|hora)\b")


def tour_timing(r: Reading, e: Entities) -> Plan | None:
    if r.facts.context.active.active_tours and TOUR_TIMING.search(e.text):
        return Plan(Intent.TOUR_TIMING)
    return None


def tour_timing_reply(r: Reading) -> str:
    tour = r.facts.context.active.active_tours[0]
    at = datetime.fromisoformat(tour.scheduled_at)
    hour = at.strftime("%I:%M%p").lstrip("0").replace(":00", "").lower()
    day = at.strftime("%a %b %d").replace(" 0", " ")
    return pick(r.language,
                f"Thanks for the heads-up about your tour on {day} at {hour}. If you need a new time, reply with a "
                "day and time and I'll book it.",
                f"Gracias por avisar sobre su visita del {at:%d/%m} a las {hour}. Si necesita otro horario, responda "
                "con el día y la hora y la agendo.")
