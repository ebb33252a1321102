"""The offline policy's words, in the caller's language (English or Spanish): a templated sentence
per tool result, an opening and a closing per intent, the direct answers that need no tool, and
for a refused call what the caller can do instead. A reply never claims what a result denies:
the opening that confirms an action is only said when that action succeeded."""
from __future__ import annotations

from actors.model.offline.entities import Entities
from actors.model.offline.plans import Intent, Plan
from actors.model.offline.policy import addressed_name
from actors.model.offline.reading import Reading, ToolCall
from actors.model.offline.sentences_call import CALL_WRITERS
from actors.model.offline.sentences_place import PLACE_WRITERS
from actors.model.offline.sentences_work import WORK_WRITERS, on_call_sentence, pick, status_words
from actors.model.offline.tour_timing import tour_timing_reply
from spine.intent.language import Language

SAFETY = {
    "gas": ("Please leave the unit now, don't flip switches or use flames, and call 911 and the gas company from "
            "outside.", "Salga de la unidad ahora, no prenda interruptores ni flamas, y llame al 911 y a la compañía "
                        "de gas desde afuera."),
    "carbon_monoxide": ("Please get everyone out into fresh air now and call 911.",
                        "Salgan todos al aire libre ahora y llame al 911."),
    "fire": ("Please get out now and call 911.", "Salga ahora mismo y llame al 911."),
    "flood": ("If you can do it safely, shut off the water valve and keep away from outlets and appliances.",
              "Si puede hacerlo sin riesgo, cierre la llave de paso del agua y aléjese de enchufes y aparatos."),
    "electrical": ("Stay clear of it; if it's safe, switch off the breaker. Call 911 if you see smoke or flames.",
                   "Aléjese; si es seguro, apague el interruptor. Llame al 911 si ve humo o llamas."),
    "threat": ("If you are in danger, call 911 right away.", "Si está en peligro, llame al 911 de inmediato."),
}
INTRO = ("I'm Clara, a property management AI", "soy Clara, una asistente de IA de administración de propiedades")
WRITERS = {**WORK_WRITERS, **PLACE_WRITERS, **CALL_WRITERS}
CLOSINGS = {
    Intent.AVAILABILITY: ("Would you like to schedule a tour? Just reply with a day and time that works.",
                     "¿Le gustaría agendar una visita? Responda con el día y la hora que le convengan."),
    Intent.WO_DETAILS: ("What's the latest on your end?", "¿Cómo va por su lado?"),
}
FAIR_HOUSING = (
    "Everyone is welcome here and every applicant is held to the same written screening criteria, so I can't "
    "describe who lives in the area or suggest a home based on that.",
    "Aquí todos son bienvenidos y cada solicitante se evalúa con los mismos criterios por escrito, así que no "
    "puedo describir quién vive en la zona ni recomendar un hogar por eso.")
# What a caller can do when the gate refused a tool: the rule is the gate's; this is the way forward.
INSTEAD: dict[str, tuple[str, str]] = {
    "create_work_order": ("I can only open work orders for your own unit; the residents of that unit or the office "
                          "can report it there.",
                          "Solo puedo abrir órdenes de trabajo para su propia unidad; los residentes de esa unidad o "
                          "la oficina pueden reportarlo."),
    "respond_to_renewal": ("Renewal answers come from the lease's primary signer; they can reply to the offer, or "
                           "the office can walk you through it.",
                           "La respuesta a la renovación la da quien firmó el contrato como titular; esa persona "
                           "puede responder, o la oficina puede explicarle."),
    "get_balance": ("Balance details go to the lease's financially responsible signers; the office can help you "
                    "with payments.", "El saldo solo se comparte con los firmantes responsables del pago; la "
                                      "oficina puede ayudarle con pagos."),
}
VENDOR_INSTEAD = ("That work order isn't one I can update for you; if you should be on it, the office can assign it "
                  "to you.", "No puedo actualizar esa orden para usted; si le corresponde, la oficina puede "
                             "asignársela.")
OTHER_INSTEAD = ("That isn't something I can do from this line, but I can pass it to the office — just say so.",
                 "Eso no lo puedo hacer desde esta línea, pero puedo pasárselo a la oficina; solo dígame.")


def say(lang: Language, pair: tuple[str, str]) -> str:
    return pair[1] if lang == "es" else pair[0]


def direct(plan: Plan, r: Reading, e: Entities) -> str:
    """A reply when the plan needs no tool (or none it wanted was offered)."""
    text = _direct(plan, r, e)
    return text[:1].upper() + text[1:]


def _direct(plan: Plan, r: Reading, e: Entities) -> str:  # noqa: C901 - one case per intent, read top to bottom
    lang, hi = r.language, _hi(r)
    if plan.intent == Intent.WRONG_NUMBER:
        who = addressed_name(e.text)
        return pick(lang, f"Looks like you have the wrong number — {INTRO[0]}, not {who}. No worries, have a good one!",
                    f"Parece que tiene el número equivocado — {INTRO[1]}, no {who}. ¡Que le vaya bien!")
    if plan.intent == Intent.EMERGENCY:
        return say(lang, SAFETY[e.emergency.kind if e.emergency else "threat"]) + pick(
            lang, " I couldn't alert staff from this line, so please call the property too.",
            " No pude avisar al personal desde esta línea, así que llame también a la propiedad.")
    if plan.intent == Intent.WO_STATUS_CONTEXT:
        return hi + status_from_context(r, plan.wo)
    if plan.intent == Intent.VENDOR_ETA:
        mine = ", ".join(w.display_id for w in r.work_orders if w.as_vendor)
        listed = pick(lang, f" I have you on {mine}.", f" Lo tengo en {mine}.") if mine else ""
        return hi + pick(lang, "thanks for the heads-up. Which work order is this for?",
                         "gracias por avisar. ¿De qué orden de trabajo se trata?") + listed
    if plan.intent in (Intent.VENDOR_HANDOFF, Intent.VENDOR_DONE, Intent.VENDOR_NOTE):
        return hi + pick(lang, "which work order is this about? Please include its number, like WO-7.",
                         "¿de qué orden de trabajo se trata? Incluya su número, por ejemplo WO-7.")
    if plan.intent == Intent.TOUR_NEEDS_TIME:
        return hi + pick(lang, "happy to set up a tour! What day and time work for you?",
                         "¡con gusto agendamos una visita! ¿Qué día y a qué hora le queda bien?") + _fair(plan, lang)
    if plan.intent == Intent.MAINTENANCE:
        return hi + pick(lang, "sorry to hear that. I can't open a work order from this line; please contact the "
                               "leasing office.", "lamento oírlo. No puedo abrir una orden desde esta línea; "
                                                  "comuníquese con la oficina.")
    if plan.intent == Intent.WO_DETAILS:
        return hi + pick(lang, f"I couldn't look up {plan.wo} from here; the office can give you its details.",
                         f"no pude consultar {plan.wo} desde aquí; la oficina puede darle los detalles.")
    if plan.intent == Intent.HUMAN:
        return hi + pick(lang, "I'll pass that along — please call the leasing office to reach a person directly.",
                         "Lo paso al equipo; llame a la oficina para hablar con una persona directamente.")
    if plan.intent == Intent.FAIR_HOUSING:
        return say(lang, FAIR_HOUSING) + pick(
            lang, " I'm glad to help with available units, pricing, amenities or a tour — what would you like to know?",
            " Con gusto le ayudo con unidades disponibles, precios, amenidades o una visita. ¿Qué le gustaría saber?")
    if plan.intent == Intent.RENEWAL_NOT_SIGNER or plan.intent == Intent.BALANCE_NOT_RESPONSIBLE:
        key = "respond_to_renewal" if plan.intent == Intent.RENEWAL_NOT_SIGNER else "get_balance"
        return hi + say(lang, INSTEAD[key])
    if plan.intent == Intent.PM_TOURS:
        return hi + pick(lang, "the tour calendar is for the leasing team (leasing agents and managers), so I can't "
                               "list it for you; I can look up a person or list the open work orders.",
                         "el calendario de visitas es para el equipo de renta (agentes y gerentes), así que no puedo "
                         "mostrárselo; puedo buscar a una persona o listar las órdenes de trabajo abiertas.")
    if plan.intent == Intent.PM_RENEWAL_TERMS:
        unit = pick(lang, f" for unit {plan.wo}", f" para la unidad {plan.wo}") if plan.wo else ""
        return hi + pick(lang, f"what term and monthly rent should the renewal offer{unit} have? "
                               "For example: 12 months at $2,600.",
                         f"¿qué plazo y renta mensual lleva la oferta de renovación{unit}? Por ejemplo: 12 meses a $2,600.")
    if plan.intent == Intent.TOUR_TIMING:
        return tour_timing_reply(r)
    if plan.intent == Intent.THANKS:
        return pick(lang, "You're welcome! Anything else I can help with?", "¡Con gusto! ¿Algo más en que le ayude?")
    if r.facts.unknown:
        return pick(lang, f"Hi — {INTRO[0]}. If you were trying to reach someone else, you may have the wrong number; "
                          "otherwise, how can I help?",
                    f"Hola — {INTRO[1]}. Si buscaba a otra persona, quizá tenga el número equivocado; si no, "
                    "¿en qué le puedo ayudar?")
    if plan.intent == Intent.GREETING:
        return (hi or pick(lang, "Hi, ", "Hola, ")) + pick(lang, "this is Clara. How can I help you today?",
                                                            "soy Clara. ¿En qué le puedo ayudar hoy?")
    return hi + pick(lang, "I want to make sure I get this right — could you tell me a bit more about what you need?",
                     "quiero entenderle bien — ¿me puede contar un poco más de lo que necesita?")


def status_from_context(r: Reading, display_id: str | None) -> str:
    """personContext.active is authoritative: answer from it, no tool call."""
    lang = r.language
    pointers = [w for w in ([r.work_order(display_id)] if display_id else r.work_orders) if w]
    if not pointers:
        return pick(lang, "I don't see any open work orders for you right now. Want me to open one?",
                    "No veo órdenes de trabajo abiertas a su nombre. ¿Quiere que abra una?")
    lines = [pick(lang, f"{w.display_id} ({w.brief}) is {status_words(w.status, lang)}",
                  f"{w.display_id} ({w.brief}) está {status_words(w.status, lang)}") for w in pointers]
    prefix = "" if len(lines) == 1 else pick(lang, f"You have {len(pointers)} open work orders: ",
                                             f"Tiene {len(pointers)} órdenes abiertas: ")
    return prefix + "; ".join(lines) + "."


def compose(plan: Plan, r: Reading, e: Entities) -> str:
    """The reply after the tool results are in."""
    lang = r.language
    refused = [c for c in r.calls if c.refused]
    failed = [c for c in r.calls if c.is_error and not c.refused]
    escalated = any(c.name == "escalate_to_human" and not c.is_error for c in r.calls)
    parts = [_opening(plan, r, e)]
    # An escalation made because an action failed is reported by the failure line itself.
    quiet = {"escalate_to_human"} if failed and plan.intent not in (Intent.EMERGENCY, Intent.HUMAN) else set()
    parts += [sentence(c, e, lang) for c in r.calls if not c.is_error and c.name not in quiet]
    parts.append(on_call_sentence([c.output for c in r.calls if not c.is_error], lang))
    parts += [instead(c, lang) for c in refused]
    parts += [failure(c, escalated, lang) for c in failed if c.name != "save_prospect"]
    if plan.intent == Intent.RENEWAL_NOT_SIGNER:
        parts.append(say(lang, INSTEAD["respond_to_renewal"]))
    if plan.intent == Intent.PM_RENEWAL_LOOKUP and not any(c.name == "pm_send_renewal" for c in r.calls):
        parts.append(_renewal_question(r))
    if plan.fair_housing:
        parts.append(say(lang, FAIR_HOUSING))
    closing = CLOSINGS.get(plan.intent)
    if closing and not failed and not refused and not any(p.endswith("?") for p in parts):
        parts.append(say(lang, closing))
    text = " ".join(p for p in parts if p).strip()
    return text or pick(lang, f"{_hi(r)}all set.", f"{_hi(r)}listo.")


def _renewal_question(r: Reading) -> str:
    """After looking the person up: which unit (from the lookup), and the offer's terms."""
    looked_up = next((c.output for c in r.calls if c.name == "pm_lookup_person" and c.output), None)
    units = sorted({u for m in getattr(looked_up, "matches", []) for u in m.units})
    if len(units) != 1:
        return pick(r.language, "Which unit should the renewal go to?", "¿A qué unidad va la renovación?")
    return pick(r.language, f"What term and monthly rent should the renewal offer for unit {units[0]} have? "
                            "For example: 12 months at $2,600.",
                f"¿Qué plazo y renta mensual lleva la oferta de renovación para la unidad {units[0]}?")


def _succeeded(r: Reading, *names: str) -> bool:
    return any(c.name in names and not c.is_error for c in r.calls)


def _opening(plan: Plan, r: Reading, e: Entities) -> str:
    name, lang = r.first_name, r.language
    if plan.intent == Intent.EMERGENCY:
        return say(lang, SAFETY[e.emergency.kind if e.emergency else "threat"])
    if plan.intent == Intent.VENDOR_ETA and e.eta and _succeeded(r, "add_eta_note", "update_work_order"):
        return pick(lang, f"Got it{' ' + name if name else ''}, see you {e.eta[1]}.",
                    f"Entendido{' ' + name if name else ''}, lo esperamos.")
    if plan.intent in (Intent.VENDOR_DONE, Intent.VENDOR_ACCEPT, Intent.VENDOR_NOTE, Intent.MAINTENANCE) and name:
        return pick(lang, f"Thanks {name}.", f"Gracias, {name}.")
    return ""


def sentence(call: ToolCall, e: Entities, lang: Language) -> str:
    out, writer = call.output, WRITERS.get(call.name)
    if out is None or writer is None:
        return pick(lang, "Done.", "Listo.") if call.name not in WRITERS else ""
    return writer(out, call, e, lang)


def instead(call: ToolCall, lang: Language) -> str:
    """A refusal, said as what the caller can do: never the rule's facts, never a dead end."""
    if call.name in INSTEAD:
        return say(lang, INSTEAD[call.name])
    if call.name in ("add_eta_note", "update_work_order", "get_dispatch_details", "accept_dispatch",
                     "handoff_to_other_vendor"):
        return say(lang, VENDOR_INSTEAD)
    return say(lang, OTHER_INSTEAD)


ACTIONS = {
    "create_work_order": ("open the work order", "abrir la orden de trabajo"),
    "pm_create_work_order": ("open the work order", "abrir la orden de trabajo"),
    "add_eta_note": ("note your ETA", "anotar su hora de llegada"),
    "update_work_order": ("update the work order", "actualizar la orden"),
    "accept_dispatch": ("confirm the dispatch", "confirmar la asignación"),
    "handoff_to_other_vendor": ("hand the work order off", "reasignar la orden"),
    "schedule_tour": ("book the tour", "agendar la visita"),
    "respond_to_renewal": ("record your renewal answer", "registrar su respuesta de renovación"),
    "escalate_to_human": ("reach the team", "contactar al equipo"),
    "submit_rating": ("record your rating", "registrar su calificación"),
    "send_application_link": ("send the application link", "enviar la solicitud"),
}


def failure(call: ToolCall, escalated: bool, lang: Language) -> str:
    action = say(lang, ACTIONS.get(call.name, ("finish that", "terminar eso")))
    reason = call.failure if lang == "en" else ""  # handler reasons are English; a Spanish reply omits them
    said = pick(lang, f"I wasn't able to {action}" + (f": {reason}" if reason else "") + ".",
                f"No pude {action}.")
    if escalated:
        return said + pick(lang, " I've flagged this for the team so someone follows up.",
                           " Ya lo marqué para que el equipo le dé seguimiento.")
    return said


def _hi(r: Reading) -> str:
    return pick(r.language, f"Hi {r.first_name}, ", f"Hola {r.first_name}, ") if r.first_name else ""


def _fair(plan: Plan, lang: Language) -> str:
    return " " + say(lang, FAIR_HOUSING) if plan.fair_housing else ""
