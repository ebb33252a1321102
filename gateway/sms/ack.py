"""`ACK` / `ACK <code>` by SMS, handled before any agent turn (ARCHITECTURE.md "People in the
loop"): from a Person who holds an open page it acknowledges it (spine.paging_ack); from anyone
else it is an ordinary message and the turn runs."""
from __future__ import annotations

from spine.context import Channel
from spine.paging_ack import ACK_WORD, AckOutcome, ack_by_text
from spine.participants import resolve_participant
from spine.repo import Spine


async def page_ack(spine: Spine, from_address: str, body: str) -> AckOutcome | None:
    """What the ACK did, or None when this text is not an acknowledgement (run the turn)."""
    if ACK_WORD.match(body or "") is None:  # most texts: no store read
        return None
    person_id = await resolve_participant(spine, Channel.SMS, from_address)
    return await ack_by_text(spine, person_id, body) if person_id else None
