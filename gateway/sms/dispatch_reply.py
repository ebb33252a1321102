"""`YES` / `NO` (or `YES WO-90`; `SÍ` too) by SMS from a vendor contact with a pending dispatch,
handled before any agent turn (ARCHITECTURE.md "People in the loop"): it accepts the dispatch or
passes it back (desk.dispatch.dispatch). From anyone else, or with no dispatch waiting, it is an ordinary
message and the turn runs."""
from __future__ import annotations

import re

from desk.dispatch.dispatch import answer_dispatch
from gateway.sms.keyword_trace import KeywordAnswer
from spine.context import Channel
from spine.participants import resolve_participant
from spine.records import EventKind, TraceEvent
from spine.repo import Spine
from spine.work import spell_display_id

DISPATCH_WORD = re.compile(r"^\s*(?P<word>yes|s[ií]|no)\b[\s,.:!-]*(?:(?P<wo>wo)[\s-]*(?P<n>\d{1,9}))?[\s.!]*$",
                           re.IGNORECASE)
_EVENT_OF = {"accepted": EventKind.DISPATCH_ACCEPTED, "declined": EventKind.DISPATCH_DECLINED}


async def dispatch_reply(spine: Spine, from_address: str, body: str) -> KeywordAnswer | None:
    """What the YES or NO did, or None when this text is not an answer to a dispatch (run the turn)."""
    match = DISPATCH_WORD.match(body or "")
    if match is None:  # most texts: no store read
        return None
    answer = KeywordAnswer(person_id="", reply="")  # started now, for the trace's latency
    person_id = await resolve_participant(spine, Channel.SMS, from_address)
    if person_id is None:
        return None
    work_order = spell_display_id(int(match["n"])) if match["n"] else None
    done = await answer_dispatch(spine, person_id, accept=match["word"].lower() != "no", work_order=work_order)
    if done is None:
        return None
    found = await spine.get_dispatch(done.dispatch_id) if done.dispatch_id else None
    kind = _EVENT_OF.get(done.outcome)
    return answer.model_copy(update={
        "person_id": person_id, "property_id": found[0].property_id if found else None, "reply": done.reply,
        "notifications": done.notifications, "events": [TraceEvent(kind=kind, reason="sms")] if kind else []})
