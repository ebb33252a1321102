"""`ACK` / `ACK <code>` by SMS, handled before any agent turn (ARCHITECTURE.md "People in the
loop"): from a Person who holds an open page it acknowledges it (desk.oncall.ack); from anyone
else it is an ordinary message and the turn runs."""
from __future__ import annotations

from desk.oncall.ack import ACK_WORD, ack_by_text
from gateway.sms.keyword_trace import KeywordAnswer
from spine.context import Channel
from spine.participants import resolve_participant
from spine.records import EventKind, TraceEvent
from spine.repo import Spine


async def page_ack(spine: Spine, from_address: str, body: str) -> KeywordAnswer | None:
    """What the ACK did, or None when this text is not an acknowledgement (run the turn)."""
    if ACK_WORD.match(body or "") is None:  # most texts: no store read
        return None
    answer = KeywordAnswer(person_id="", reply="")  # started now, for the trace's latency
    person_id = await resolve_participant(spine, Channel.SMS, from_address)
    outcome = await ack_by_text(spine, person_id, body) if person_id else None
    if person_id is None or outcome is None:
        return None
    events = [TraceEvent(kind=EventKind.ONCALL_ACKNOWLEDGED, reason="sms")] if outcome.acknowledged else []
    return answer.model_copy(update={
        "person_id": person_id, "property_id": outcome.page.property_id if outcome.page else None,
        "reply": outcome.reply, "notifications": outcome.notifications, "events": events})
