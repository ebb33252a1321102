"""Sentences for results about places and leases: available units, pricing, tours, applications,
facility facts, the tenant's lease, balance, renewal and appliances, people lookups. Each writer
reads the handler's output model; money is spine.money's one format."""
from __future__ import annotations

from datetime import date, datetime
from typing import Any

from actors.model.offline.entities import Entities, clock_text
from actors.model.offline.reading import ToolCall
from actors.model.offline.sentences_work import Writer, pick
from spine.intent.language import Language
from spine.money import usd, usd_monthly

SPANISH_MONTHS = ("ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic")
SPANISH_DAYS = ("lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo")


def day(value: date, lang: Language, with_year: bool = False) -> str:
    if lang == "es":
        return f"{value.day} de {SPANISH_MONTHS[value.month - 1]}" + (f" de {value.year}" if with_year else "")
    return f"{value:%b} {value.day}" + (f", {value.year}" if with_year else "")


def moment(at: datetime, lang: Language) -> str:
    if lang == "es":
        return f"el {SPANISH_DAYS[at.weekday()]} {day(at.date(), lang)} a las {clock_text(at.time())}"
    return f"{at:%a}, {at:%b} {at.day} at {clock_text(at.time())}"


def size_words(bedrooms: int | None, lang: Language) -> str:
    if bedrooms is None:
        return ""
    if bedrooms == 0:
        return pick(lang, "studio", "estudio")
    return pick(lang, f"{bedrooms}BR", f"de {bedrooms} recámara{'s' if bedrooms > 1 else ''}")


def _offer(u: Any, lang: Language) -> str:
    baths = f" / {u.bathrooms:g} ba" if u.bathrooms else ""
    when = pick(lang, f", available {day(u.available_from, lang)}", f", disponible el {day(u.available_from, lang)}") \
        if u.available_from else ""
    return pick(lang, "unit", "unidad") + f" {u.unit} ({u.bedrooms} bd{baths}, {usd_monthly(u.monthly_rent_usd)}{when})"


def available_units(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    size = size_words(call.input.get("bedrooms"), lang)
    if not out.units:
        return pick(lang, f"I don't see any {size + ' ' if size else ''}units opening by then right now. "
                          "Want me to have the leasing team reach out if one opens up?",
                    f"Por ahora no veo unidades {size + ' ' if size else ''}disponibles para esa fecha. "
                    "¿Quiere que el equipo de renta le avise si se libera una?")
    listed = "; ".join(_offer(u, lang) for u in out.units)  # every unit: a prospect should see them all
    noun = pick(lang, "unit" if len(out.units) == 1 else "units", "unidad" if len(out.units) == 1 else "unidades")
    sized = f" {size}" if size and lang == "es" else ""
    return pick(lang, f"Yes — we have {len(out.units)} {size + ' ' if size else ''}{noun} available: {listed}.",
                f"Sí — tenemos {len(out.units)} {noun}{sized} disponible{'s' if len(out.units) > 1 else ''}: {listed}.")


def pricing(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    rents = sorted(u.monthly_rent_usd for u in out.units)
    if not rents:
        return pick(lang, "I don't have pricing for that right now.", "No tengo precios para eso ahora mismo.")
    span = usd_monthly(rents[0]) if rents[0] == rents[-1] else f"{usd(rents[0])}–{usd_monthly(rents[-1])}"
    size = size_words(call.input.get("bedrooms"), lang)
    return pick(lang, f"{size} rents run {span}." if size else f"Rents run {span}.",
                f"Las rentas{' ' + size if size else ''} van de {span}.")


def of_unit(unit: str | None, lang: Language, en: str = "of unit", es: str = "de la unidad", lead: str = " ") -> str:
    """How a sentence names a unit, when there is one: ' of unit 401', ' de la unidad 401'."""
    return f"{lead}{pick(lang, en, es)} {unit}" if unit else ""


def tour_booked(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    unit = of_unit(out.unit, lang)
    return pick(lang, f"You're booked for a tour {moment(out.scheduled_at, lang)}{unit} at {out.property_name}, "
                      f"{out.address}. See you then!",
                f"Su visita quedó agendada {moment(out.scheduled_at, lang)}{unit} en {out.property_name}, "
                f"{out.address}. ¡Nos vemos!")


def _tour_days(out: Any, call: ToolCall, lang: Language) -> str:
    first, last = day(out.first_day, lang), day(out.last_day, lang)
    if first != last:
        return pick(lang, f"{first}–{last}", f"del {first} al {last}")
    named = call.input.get("day", "today")
    if named in ("today", "tomorrow"):
        return pick(lang, named, "hoy" if named == "today" else "mañana")
    return pick(lang, f"on {first}", f"el {first}")


def tours_listed(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    """'2 tours today at JP Yale Station: 3pm — Tess Morgan, unit 401; ...': every one, in time order."""
    when, one_day = _tour_days(out, call, lang), out.first_day == out.last_day
    if not out.tours:
        return pick(lang, f"No tours booked {when} at {out.property_name}.",
                    f"No hay visitas agendadas {when} en {out.property_name}.")
    listed = "; ".join((clock_text(t.scheduled_at.time()) if one_day else moment(t.scheduled_at, lang))
                       + f" — {t.prospect}" + of_unit(t.unit, lang, "unit", "unidad", lead=", ") for t in out.tours)
    plural = "s" if len(out.tours) > 1 else ""
    return pick(lang, f"{len(out.tours)} tour{plural} {when} at {out.property_name}: {listed}.",
                f"{len(out.tours)} visita{plural} {when} en {out.property_name}: {listed}.")


def application_sent(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    also = pick(lang, f" (also sent to {out.email})", f" (también enviado a {out.email})") if out.email else ""
    return pick(lang, f"Here's your application link{also}: {out.url}", f"Aquí está su solicitud{also}: {out.url}")


def pool(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if not out.has_pool or out.status is None:
        return pick(lang, "There's no pool at this property.", "Esta propiedad no tiene alberca.")
    if out.status.open:
        return pick(lang, "The pool is open.", "La alberca está abierta.")
    why = f" — {out.status.reason.rstrip('.')}" if out.status.reason else ""
    return pick(lang, f"The pool is closed right now{why}.", f"La alberca está cerrada ahora{why}.")


def pets(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if not out.allowed:
        return pick(lang, "Pets aren't allowed here.", "Aquí no se permiten mascotas.") + \
            (f" {out.restrictions.rstrip('.')}." if out.restrictions else "")
    species = f" ({', '.join(out.species)})" if out.species else ""
    costs = [c for c in (pick(lang, f"{usd(out.deposit_usd)} deposit", f"depósito de {usd(out.deposit_usd)}")
                         if out.deposit_usd else "",
                         pick(lang, f"{usd_monthly(out.monthly_pet_rent_usd)} pet rent",
                              f"{usd_monthly(out.monthly_pet_rent_usd)} de renta por mascota")
                         if out.monthly_pet_rent_usd else "") if c]
    cost = (": " + pick(lang, " and ", " y ").join(costs)) if costs else ""
    text = pick(lang, f"Pets are welcome{species}{cost}.", f"Se aceptan mascotas{species}{cost}.")
    return text + (f" {out.restrictions.rstrip('.')}." if out.restrictions else "")


def parking(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if not out.available or out.rules is None:
        return pick(lang, "There's no resident parking here.", "Aquí no hay estacionamiento para residentes.")
    rules = out.rules
    return pick(lang, f"Parking: {rules.spots} spots, {usd_monthly(rules.monthly_cost_usd)}. Guests: "
                      f"{rules.guest_parking.rstrip('.')}. {rules.towing_policy.rstrip('.')}.",
                f"Estacionamiento: {rules.spots} lugares, {usd_monthly(rules.monthly_cost_usd)}. Visitas: "
                f"{rules.guest_parking.rstrip('.')}.")


def hours(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    labels = ((pick(lang, "Office", "Oficina"), out.office_hours), (pick(lang, "Pool", "Alberca"), out.pool_hours),
              (pick(lang, "Gym", "Gimnasio"), out.gym_hours), (pick(lang, "Quiet hours", "Horas de silencio"),
                                                                out.quiet_hours))
    return ". ".join(f"{label}: {value}" for label, value in labels if value) + "."


def amenities(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    names = out.amenities
    if not names:
        return pick(lang, "I don't have amenities on file here.", "No tengo amenidades registradas aquí.")
    joined = ", ".join(names[:-1]) + pick(lang, " and ", " y ") + names[-1] if len(names) > 1 else names[0]
    return pick(lang, f"Amenities include {joined}.", f"Las amenidades incluyen {joined}.")


def lease(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    unit = of_unit(out.unit, lang, en="for unit")
    return pick(lang, f"Your lease{unit} runs {day(out.start, lang, True)} to {day(out.end, lang, True)} at "
                      f"{usd_monthly(out.monthly_rent_usd)}.",
                f"Su contrato{unit} va del {day(out.start, lang, True)} al {day(out.end, lang, True)}, "
                f"a {usd_monthly(out.monthly_rent_usd)}.")


def balance(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    return pick(lang, f"Your current balance is {usd(out.balance_usd)}. Rent is due {out.rent_due}.",
                f"Su saldo actual es {usd(out.balance_usd)}.")


def renewal(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if out.status == "declined":
        return pick(lang, "Understood — I've recorded that you won't renew. The office will follow up on move-out.",
                    "Entendido — registré que no va a renovar. La oficina le contactará sobre la mudanza.")
    terms = f" ({out.term_months} months, {usd_monthly(out.monthly_rent_usd)})" if out.term_months else ""
    return pick(lang, f"Done — your renewal is accepted{terms}.", f"Listo — su renovación quedó aceptada{terms}.")


def appliances(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    listed = [" ".join(p for p in (a.kind, a.brand, a.model) if p) for a in out.appliances]
    if not listed:
        return pick(lang, "I don't have appliances on file for your unit.", "No tengo electrodomésticos registrados.")
    return pick(lang, "Your unit has: ", "Su unidad tiene: ") + "; ".join(listed) + "."


def people(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if not out.matches:
        return pick(lang, "I couldn't find anyone matching that.", "No encontré a nadie con esos datos.")
    found = [m.name + (f" — {'; '.join(m.roles)}" if m.roles else "") for m in out.matches[:5]]
    return pick(lang, "Found: ", "Encontré: ") + ". ".join(found) + "."


def renewal_sent(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    offers = ", ".join(f"{o.term_months} months at {usd_monthly(o.monthly_rent_usd)}" for o in out.offers)
    return pick(lang, f"Renewal sent for unit {out.unit}: {offers}.", f"Renovación enviada a la unidad {out.unit}: {offers}.")


def rated(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    stars = call.input.get("stars")
    return pick(lang, f"Thanks — I've recorded your {stars}-star rating for {call.input.get('work_order_id')}.",
                f"Gracias — registré su calificación de {stars} estrellas para {call.input.get('work_order_id')}.")


def silent(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    return ""  # bookkeeping the caller does not need to hear about


PLACE_WRITERS: dict[str, Writer] = {
    "get_available_units": available_units, "get_pricing_details": pricing, "schedule_tour": tour_booked,
    "pm_list_tours": tours_listed,
    "send_application_link": application_sent, "get_pool_status": pool, "get_pet_policy": pets,
    "get_parking_rules": parking, "get_property_hours": hours, "get_property_amenities": amenities,
    "get_lease_details": lease, "get_balance": balance, "respond_to_renewal": renewal,
    "get_unit_appliances": appliances, "pm_lookup_person": people, "save_prospect": silent,
    "pm_send_renewal": renewal_sent, "request_photo": silent, "submit_rating": rated,
}
