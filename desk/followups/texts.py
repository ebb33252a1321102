"""The words of each follow-up, English and Spanish, built from the record it follows at the
moment of sending (so a tour moved an hour names the new hour). Short: an SMS segment or two."""
from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from spine.followup import FollowUp, FollowUpKind
from spine.property import Property
from spine.repo import Spine
from spine.work import RenewalWorkflow, Tour, WorkOrder

APPLY_BASE_URL = "https://apply.clara.example"  # as tools.handlers.prospect's send_application_link


def _when(at: datetime, prop: Property, es: bool) -> str:
    local = at.astimezone(ZoneInfo(prop.timezone))
    hour = local.strftime("%I:%M %p").lstrip("0").lower()
    day = local.strftime("%d/%m") if es else local.strftime("%a %b %d").replace(" 0", " ")
    return f"{day} {hour}"


def tour_text(fu: FollowUp, tour: Tour, prop: Property, es: bool) -> str:
    when = _when(tour.scheduled_at, prop, es)
    where = f" at {prop.address}" if prop.address and not es else (f" en {prop.address}" if prop.address else "")
    texts = {
        FollowUpKind.TOUR_REMINDER_24H: (
            f"Reminder: your tour of {prop.name} is tomorrow, {when}{where}. Reply if you need to reschedule.",
            f"Recordatorio: su visita a {prop.name} es mañana, {when}{where}. Responda si necesita cambiarla."),
        FollowUpKind.TOUR_REMINDER_2H: (
            f"See you soon: your tour of {prop.name} is at {when}{where}. Running late? Just reply.",
            f"Le esperamos: su visita a {prop.name} es a las {when}{where}. ¿Se retrasa? Responda aquí."),
        FollowUpKind.TOUR_NO_SHOW: (
            f"We missed you at your {prop.name} tour today. Would you like to pick another time?",
            f"Le extrañamos hoy en su visita a {prop.name}. ¿Quiere elegir otro horario?"),
        FollowUpKind.TOUR_APPLICATION: (
            f"Thanks for touring {prop.name}! Ready to apply? {APPLY_BASE_URL}/{prop.id} Questions? Just reply.",
            f"¡Gracias por visitar {prop.name}! ¿Listo para aplicar? {APPLY_BASE_URL}/{prop.id} "
            "¿Preguntas? Responda aquí."),
    }
    english, spanish = texts[fu.kind]
    return spanish if es else english


def closeout_text(wo: WorkOrder, prop: Property, es: bool) -> str:
    if es:
        return (f"{prop.name}: la orden {wo.display_id} ({wo.brief}) figura como terminada. ¿Quedó resuelto? "
                "Responda con una calificación del 1 al 5, o \"no\" si sigue el problema.")
    return (f"{prop.name}: {wo.display_id} ({wo.brief}) is marked completed. Is it fixed? Reply with a 1-5 "
            "rating, or \"no\" if it's still a problem.")


def renewal_text(renewal: RenewalWorkflow, prop: Property, lease_end: str, es: bool) -> str:
    offers = ", ".join(f"{o.term_months} {'meses' if es else 'months'} at ${o.monthly_rent_usd:,}/mo"
                       for o in renewal.offers)
    if es:
        offers = offers.replace(" at ", " a ").replace("/mo", "/mes")
        return (f"{prop.name}: su contrato termina el {lease_end}. Su oferta de renovación: {offers}. "
                "Responda con el plazo que prefiera, o díganos si se muda.")
    return (f"{prop.name}: your lease ends {lease_end}. Your renewal offer: {offers}. Reply with the term "
            "you'd like, or let us know if you're moving out.")


async def spanish(spine: Spine, person_id: str) -> bool:
    """Whether to write in Spanish: the language they last wrote in, else their record's."""
    last = await spine.last_contact(person_id)
    if last is not None and last.language:
        return last.language == "es"
    person = await spine.get_person(person_id)
    return bool(person and (person.language or "").startswith("es"))
