"""A person's reply to a follow-up that asked something, answered before any agent turn.

A close-out asked "is it fixed? 1-5": a rating ("5", "5 thanks", "4/5", "★★★★") is recorded on
the work order as `submit_rating` records it; "no", "still leaking", "not fixed" reopens the
work order (status `open`, `work_order/reopened`) and tells its vendor's contacts and the
property's managers. A renewal offer: "I'm moving out" files a notice-to-vacate escalation for
staff. Anything else is Clara's to answer in a turn (the follow-up's words are in the
conversation, its record in personContext). After 48 h a close-out no longer takes answers.
"""
from __future__ import annotations

import re
import secrets
from datetime import datetime

from pydantic import BaseModel, Field

import spine.keys as keys
from desk.followups.texts import spanish
from desk.oncall.paging import managers_of
from desk.outbound.queue import Notification, NotificationKind, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.escalation import Escalation
from spine.events import emit_event
from spine.followup import FollowUp, FollowUpKind
from spine.identity import PersonRoleType
from spine.intent.language import language_of
from spine.participants import resolve_participant
from spine.records import EventKind
from spine.repo import Spine
from spine.work import RenewalStatus, WorkOrder, WorkOrderStatus

_STARS = re.compile(r"^[\s\"'(]*(?:(?P<n>[1-5])(?:\s*(?:/|out\s+of|de)\s*5)?(?:\s*(?:stars?|estrellas?))?|(?P<s>[★⭐]{1,5}))"
                    r"(?:[\s,.!-]+(?P<rest>.*))?$", re.I | re.S)
_NOT_FIXED = re.compile(r"^\W*(?:no|nope|nah)\b|\bnot\s+(?:fixed|working|resolved)\b|\bstill\s+(?:\w+ing|broken|"
                        r"not|there|bad)\b|\bdoesn'?t\s+work\b|\bsigue\b|\bno\s+(?:est[aá]\s+)?(?:arreglad|resuelt|"
                        r"funciona)|\btodav[ií]a\b|\ba[uú]n\s+\w+", re.I)
_MOVING_OUT = re.compile(r"\b(?:i'?m|i\s+am|we'?re|we\s+are|will\s+be|i'?ll\s+be|we'?ll\s+be)\s+moving\s+out\b|"
                         r"\bmoving\s+out\b|\bnot\s+(?:going\s+to\s+)?renew|\bme\s+mudo\b|\bnos\s+mudamos\b|"
                         r"\bno\s+(?:voy|vamos)\s+a\s+renovar", re.I)
MAX_ANSWER_CHARS = 300


class FollowUpAnswer(BaseModel):
    person_id: str
    property_id: str
    reply: str
    followup_id: str
    notifications: list[Notification] = Field(default_factory=list)


def stars_in(text: str) -> tuple[int, str] | None:
    """The 1-5 rating a reply gives, and the words after it (its comment), or None."""
    found = _STARS.match(text.strip())
    if found is None:
        return None
    stars = int(found["n"]) if found["n"] else len(found["s"])
    return stars, (found["rest"] or "").strip()


def could_answer(text: str) -> bool:
    """Whether `text` has the shape of an answer this module takes (a rating, "not fixed", "I'm
    moving out"): only then are the person's open questions read."""
    return stars_in(text) is not None or bool(_NOT_FIXED.search(text) or _MOVING_OUT.search(text))


async def answer_followup(spine: Spine, person_id: str, text: str, now: datetime) -> FollowUpAnswer | None:
    """Answer `text` as the reply to the person's open question, or None (then a turn answers it)."""
    for fu, version in reversed(await spine.followups_of_person(person_id)):  # the newest question first
        if not fu.awaits_answer(now):
            continue
        es = (language_of(text) or ("es" if await spanish(spine, person_id) else "en")) == "es"
        if fu.kind == FollowUpKind.WORK_ORDER_CLOSEOUT:
            answered = await _closeout(spine, fu, text, now, es)
        elif fu.kind == FollowUpKind.RENEWAL_OFFER and _MOVING_OUT.search(text):
            answered = await _notice_to_vacate(spine, fu, text, es)
        else:
            continue
        if answered is not None:
            await spine.replace_followup(fu.model_copy(update={"answered_at": now}), version)
            return answered
    return None


async def _closeout(spine: Spine, fu: FollowUp, text: str, now: datetime, es: bool) -> FollowUpAnswer | None:
    wo = await spine.get_work_order(fu.follows_id)
    if wo is None or wo.status not in (WorkOrderStatus.COMPLETED, WorkOrderStatus.CLOSED):
        return None
    if (rated := stars_in(text)) is not None:
        return await _rate(spine, fu, wo, *rated, es=es)
    if _NOT_FIXED.search(text):
        return await _reopen(spine, fu, wo, text, now, es)
    return None


async def _rate(spine: Spine, fu: FollowUp, wo: WorkOrder, stars: int, comment: str, *, es: bool) -> FollowUpAnswer:
    """As `submit_rating` records it: the stars on the work order, a comment as a note."""
    wo.rating = stars
    await spine.note_work_order(wo, fu.person_id, f"Rating comment: {comment[:1000]}" if comment else None,
                                updated_at=None)
    await emit_event(spine, EventKind.TENANT_RATING, str(stars), channel=None, address=None,
                     property_id=wo.property_id, interaction_id=None,
                     detail={"work_order": wo.display_id, "followup_id": fu.id})
    return FollowUpAnswer(person_id=fu.person_id, property_id=fu.property_id, followup_id=fu.id,
                          reply=f"Calificación de {wo.display_id}: {stars}/5. ¡Gracias!" if es
                          else f"Rated {wo.display_id} {stars}/5. Thank you!")


async def _reopen(spine: Spine, fu: FollowUp, wo: WorkOrder, text: str, now: datetime, es: bool) -> FollowUpAnswer:
    """Not fixed: the work order is open again, and its vendor and the property's managers hear it."""
    wo.status = WorkOrderStatus.OPEN
    await spine.note_work_order(wo, fu.person_id, f"Reopened: the tenant says {text[:300]!r}", updated_at=now)
    await emit_event(spine, EventKind.WORK_ORDER_REOPENED, "tenant_not_fixed", channel=None, address=None,
                     property_id=wo.property_id, interaction_id=None,
                     detail={"work_order": wo.display_id, "followup_id": fu.id})
    body = f"{wo.display_id} ({wo.brief}) was reopened: the tenant says it is not fixed: \"{text[:200]}\""
    told = [await _tell(spine, fu, wo, person, body) for person in await _who_to_tell(spine, wo)]
    if es:
        reply = f"Lamento que siga el problema. Reabrí la orden {wo.display_id}"
        reply += " y avisé al equipo de mantenimiento y a la oficina." if told else "; la oficina le dará seguimiento."
    else:
        reply = f"Sorry it's still not right. I've reopened {wo.display_id}"
        reply += " and told the maintenance team and the office." if told else "; the office will follow up."
    return FollowUpAnswer(person_id=fu.person_id, property_id=fu.property_id, followup_id=fu.id, reply=reply,
                          notifications=told)


async def _who_to_tell(spine: Spine, wo: WorkOrder) -> list[str]:
    prop = await spine.get_property(wo.property_id)
    vendor = [r.person_id for r in await spine.roles_scoped_to(keys.vendor_roles(wo.assigned_vendor_id))
              if r.role_type == PersonRoleType.VENDOR_CONTACT] if wo.assigned_vendor_id else []
    managers = await managers_of(spine, wo.property_id, prop.org_id if prop else None)
    return sorted(set(vendor) | set(managers))


async def _tell(spine: Spine, fu: FollowUp, wo: WorkOrder, person_id: str, body: str) -> Notification:
    return await queue_outbound(spine, OutboundRequest(
        key=f"reopened-{fu.id}-{person_id}", kind=NotificationKind.STAFF, recipient_person_id=person_id,
        property_id=wo.property_id, body=body, subject=f"{wo.display_id} reopened"))


async def _notice_to_vacate(spine: Spine, fu: FollowUp, text: str, es: bool) -> FollowUpAnswer:
    """"I'm moving out" to a renewal offer: an escalation staff act on (a notice to vacate)."""
    prop = await spine.get_property(fu.property_id)
    escalation = Escalation(id=f"esc_{secrets.token_hex(6)}", org_id=prop.org_id if prop else "",
                            property_id=fu.property_id, person_id=fu.person_id, channel="followup",
                            reason="notice_to_vacate", summary=f"Renewal {fu.follows_id}: the tenant says {text[:300]!r}")
    await spine.put_escalation(escalation)
    renewal = await spine.get_renewal(fu.follows_id)
    if renewal is not None and renewal.status == RenewalStatus.OFFERED:  # the later offers stop
        await spine.put_renewal(renewal.model_copy(update={"status": RenewalStatus.DECLINED}))
    return FollowUpAnswer(person_id=fu.person_id, property_id=fu.property_id, followup_id=fu.id,
                          reply=("Gracias por avisarnos. Pasé su aviso de desocupación a la oficina; le confirmarán "
                                 "los detalles de la mudanza.") if es else
                          ("Thanks for letting us know. I've passed your notice to vacate to the office; "
                           "they'll confirm the move-out details with you."))


async def followup_reply(spine: Spine, channel: Channel, address: str, text: str) -> FollowUpAnswer | None:
    """The channels' entry: the person at `address`, if any, answering an open question. Long
    messages are conversations, not answers: they go to Clara."""
    if len(text) > MAX_ANSWER_CHARS or not could_answer(text):
        return None  # most messages: no store read for a question nobody asked
    person_id = await resolve_participant(spine, channel, address)
    return await answer_followup(spine, person_id, text, spine.clock()) if person_id else None
