"""Sentences for work-order results: opened (or added to), updated, details, lists, hand-offs,
escalations. Each writer reads the handler's own output model, never guessed keys."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from actors.model.offline.entities import Entities
from actors.model.offline.reading import ToolCall
from spine.intent.language import Language

Writer = Callable[[Any, ToolCall, Entities, Language], str]  # (output model, the call, entities, language)


def pick(lang: Language, en: str, es: str) -> str:
    return es if lang == "es" else en


def status_words(status: str, lang: Language) -> str:
    spanish = {"open": "abierta", "dispatched": "asignada", "scheduled": "programada", "in_progress": "en curso",
               "completed": "completada", "closed": "cerrada", "cancelled": "cancelada"}
    return spanish.get(status, status.replace("_", " ")) if lang == "es" else status.replace("_", " ")


def _names_unit(wo: Any) -> bool:
    """Some briefs already say where ('leak under kitchen sink, unit 312'): say it once."""
    return bool(wo.unit) and f"unit {wo.unit}" in wo.brief


def work_order_created(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    unit = f" in unit {out.unit}" if out.unit and not _names_unit(out) else ""
    if getattr(out, "added_to_existing", False):
        return pick(lang, f"{out.work_order_id} ({out.brief}{unit}) is already open, so I've added your report "
                          f"to it rather than opening a second one.",
                    f"La orden {out.work_order_id} ({out.brief}) ya está abierta, así que agregué su reporte ahí "
                    f"en lugar de abrir otra.")
    marked = pick(lang, f" and marked it {out.priority}", f" con prioridad {out.priority}") \
        if out.priority in ("urgent", "emergency") else ""
    text = pick(lang, f"I've opened {out.work_order_id} for the {out.brief}{unit}{marked}.",
                f"Abrí la orden de trabajo {out.work_order_id}{marked}.")
    if vendor := getattr(out, "vendor", None):
        return text + pick(lang, f" {vendor} is assigned.", f" {vendor} está asignado.")
    if out.priority == "emergency":  # paged: on_call_sentence says who is being reached
        return text + pick(lang, " The maintenance team has it now.", " El equipo de mantenimiento ya la tiene.")
    # Routine: logged for the team, accepted by nobody yet; say so, and what happens next.
    return text + pick(lang, " It's logged for the maintenance team, and you'll get a text when it's scheduled.",
                       " Quedó registrada para el equipo de mantenimiento; le avisaremos por mensaje cuando esté "
                       "programada.")


def troubleshooting(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if out.topic == "general":  # no guide for this problem: the work order is the answer
        return pick(lang, "A photo of it would help the technician bring the right parts.",
                    "Una foto del problema ayudaría al técnico a traer las piezas correctas.")
    if lang == "es":  # the guides are written in English; a Spanish caller gets the safe stop rule
        return "Mientras tanto, si empeora o ve agua acumulándose, avísenos de inmediato."
    urgent = e.problem is not None and e.problem.priority != "normal"
    if urgent:
        return f"Meanwhile, if {out.stop_and_report_if}"
    first = f"Meanwhile, you can try this: {out.steps[0]}" if out.steps else ""
    return (first + f" If {out.stop_and_report_if}").strip()


def _reached(out: Any, kind: str) -> bool:
    return any(n.kind == kind and n.status in ("queued", "sent") for n in getattr(out, "notifications", []))


def escalated(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    """What the escalation did, no more: a page (said once, by on_call_sentence), a staff message,
    or only recorded."""
    if getattr(out, "on_call", None) is not None:
        return ""
    if _reached(out, "staff"):
        return pick(lang, "I've passed this to the team, and someone will follow up.",
                    "Le pasé esto al equipo y alguien le dará seguimiento.")
    return pick(lang, "I've recorded this for the property team to follow up.",
                "Dejé esto registrado para que el equipo de la propiedad le dé seguimiento.")


def tenant_told(out: Any, lang: Language) -> str | None:
    """What became of the tenant's notice, exactly: queued, waiting for the morning, or not sent."""
    notices = [n for n in getattr(out, "notifications", []) if n.kind == "notify"]
    if not notices:
        return None
    if any(n.status in ("queued", "sent") for n in notices):
        return pick(lang, "Tenant has been notified.", "Ya le avisé al inquilino.")
    if any(n.status == "deferred" for n in notices):
        return pick(lang, "The tenant will be told at 9:00 am, when messages to residents resume.",
                    "Se le avisará al inquilino a las 9:00 am, cuando se reanudan los mensajes a residentes.")
    return pick(lang, "The tenant has opted out of messages, so they weren't told.",
                "El inquilino no recibe mensajes, así que no se le avisó.")


def on_call_sentence(outputs: list[Any], lang: Language) -> str:
    """What the turn's pages did, said once (a work order and an escalation of one emergency share
    one page): "I've alerted the on-call team" only when a page is running."""
    pages = [o.on_call for o in outputs if getattr(o, "on_call", None) is not None]
    if not pages:
        return ""
    page = next((p for p in pages if p.status == "paging"), pages[0])
    if page.status in ("paging", "exhausted"):
        names = " and ".join(page.paged) or pick(lang, "the first person on call", "la primera persona de guardia")
        return pick(lang, f"I've alerted the on-call team: {names} is being texted and called now, and I'll let you "
                          f"know when someone has it.",
                    f"Ya avisé al equipo de guardia: le estamos enviando un mensaje y llamando a {names}, y le "
                    f"avisaré cuando alguien se encargue.")
    if page.status == "acknowledged":
        return pick(lang, "Someone on the on-call team already has this.",
                    "Alguien del equipo de guardia ya se está encargando.")
    return pick(lang, "I could not reach the on-call team automatically: no on-call plan is set up for this property. "
                      "Your report is recorded for the property team.",
                "No pude avisar al equipo de guardia automáticamente: esta propiedad no tiene un plan de guardia. "
                "Su reporte quedó registrado para el equipo de la propiedad.")


def work_order_updated(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    wo, told = out.work_order_id, tenant_told(out, lang)
    if call.input.get("status") == "completed":
        done = pick(lang, f"I've marked {wo} as completed.", f"Marqué {wo} como completada.")
        return f"{done} {told}" if told else done
    if call.input.get("eta"):
        if told and told.startswith(("Tenant", "Ya")):
            return told  # the ADR's K-2: "Got it Mike, see you at 3pm. Tenant has been notified."
        noted = pick(lang, f"I've noted your ETA on {wo}.", f"Anoté su hora de llegada en {wo}.")
        return f"{noted} {told}" if told else noted
    if call.input.get("note"):
        return pick(lang, f"I've added your note to {wo} ({out.brief}) so the team sees it.",
                    f"Agregué su nota a {wo} para que el equipo la vea.")
    return pick(lang, f"I've updated {wo}.", f"Actualicé {wo}.")


def work_order_detail(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    unit = pick(lang, f", unit {out.unit}", f", unidad {out.unit}") if out.unit and not _names_unit(out) else ""
    text = f"{out.work_order_id} — {out.brief}{unit} ({status_words(out.status, lang)})."
    if out.description and len(out.description) <= 160 and out.description.lower() != out.brief.lower():
        text += f" {out.description}"
    if out.notes:
        text += pick(lang, f" Latest note: {out.notes[-1].text}", f" Última nota: {out.notes[-1].text}")
    if out.eta:
        text += pick(lang, f" ETA: {out.eta}.", f" Llegada: {out.eta}.")
    return text


def open_work_orders(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    if not out.work_orders:
        return pick(lang, "There are no open work orders right now.", "No hay órdenes de trabajo abiertas ahora.")
    # Emergencies first, then urgent, then the rest; every one listed, with its unit and priority.
    rank = {"emergency": 0, "urgent": 1}
    ordered = sorted(out.work_orders, key=lambda w: rank.get(w.priority, 2))
    lines = []
    for w in ordered:
        where = pick(lang, f"unit {w.unit}", f"unidad {w.unit}") if w.unit else pick(lang, "common area", "área común")
        flag = f"{w.priority.upper()}: " if w.priority in rank else ""
        brief = w.brief if _names_unit(w) or not w.unit else f"{w.brief}, {where}"
        lines.append(f"{flag}{w.work_order_id} ({brief}, {status_words(w.status, lang)})")
    return pick(lang, f"{len(ordered)} open: ", f"{len(ordered)} abiertas: ") + "; ".join(lines) + "."


def vendor_assigned(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    text = pick(lang, f"Done — {out.work_order_id} is assigned to {out.vendor or call.input.get('vendor_id')} "
                      f"({status_words(out.status, lang)}).",
                f"Listo — {out.work_order_id} quedó asignada a {out.vendor or call.input.get('vendor_id')}.")
    return f"{text} {_dispatch_told(out, lang)}"


def _dispatch_told(out: Any, lang: Language) -> str:
    """What became of the dispatch texts to the vendor's contacts, exactly."""
    sent = [n for n in getattr(out, "notifications", []) if n.kind == "dispatch"]
    if any(n.status in ("queued", "sent") for n in sent):
        return pick(lang, "I've texted them the dispatch; they accept with YES or pass with NO.",
                    "Les envié la orden por mensaje; aceptan con YES o la rechazan con NO.")
    if any(n.status == "deferred" for n in sent):
        return pick(lang, "They'll get the dispatch text at 9:00 am.", "Recibirán la orden por mensaje a las 9:00 am.")
    return pick(lang, "I couldn't text them the dispatch, so please contact them directly.",
                "No pude enviarles la orden por mensaje; contáctelos directamente.")


def dispatch_accepted(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    eta = pick(lang, f", ETA {out.eta}", f", llegada {out.eta}") if out.eta else ""
    text = pick(lang, f"You're confirmed on {out.work_order_id}{eta}.", f"Quedó confirmado en {out.work_order_id}{eta}.")
    told = tenant_told(out, lang)
    return f"{text} {told}" if told else text


def work_order_closed(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    wo = call.input.get("work_order_id")
    return pick(lang, f"Done — {wo} is closed.", f"Listo — {wo} quedó cerrada.")


def handed_off(out: Any, call: ToolCall, e: Entities, lang: Language) -> str:
    text = pick(lang, f"I've flagged {out.work_order_id} for reassignment",
                f"Marqué {out.work_order_id} para reasignarla")
    if _reached(out, "staff"):
        return text + pick(lang, "; the office has been told and will find another vendor.",
                           "; ya le avisé a la oficina, que buscará otro proveedor.")
    return text + pick(lang, "; it is on the office's list to reassign.",
                       "; queda en la lista de la oficina para reasignarla.")


WORK_WRITERS: dict[str, Writer] = {
    "create_work_order": work_order_created, "pm_create_work_order": work_order_created,
    "get_troubleshooting_steps": troubleshooting, "escalate_to_human": escalated,
    "add_eta_note": work_order_updated, "update_work_order": work_order_updated,
    "get_dispatch_details": work_order_detail, "get_work_order_detail": work_order_detail,
    "pm_list_open_work_orders": open_work_orders, "pm_assign_vendor": vendor_assigned,
    "pm_close_work_order": work_order_closed, "accept_dispatch": dispatch_accepted,
    "handoff_to_other_vendor": handed_off,
}
