"""Nobody took the call: an escalation filed at once (who asked, why, who was tried and when), so
staff see it even if the caller hangs up on Clara; what the caller then tells Clara is added to it."""
from __future__ import annotations

import secrets

from desk.transfer.progress import change, note
from spine.escalation import Escalation
from spine.records import EventKind
from spine.repo import Spine
from spine.transfer import Transfer
from spine.work import Priority

MESSAGE_MAX_CHARS = 2000


def tried(transfer: Transfer) -> str:
    """"Mike Torres (on-call level 1) at 21:04:05 UTC: no-answer; ..." for the escalation and the console."""
    lines = []
    for attempt in transfer.attempts:
        if 0 <= attempt.index < len(transfer.targets):
            lines.append(f"{transfer.targets[attempt.index].label} at {attempt.at:%H:%M:%S} UTC: {attempt.status}")
    return "; ".join(lines) or "nobody (no office line in hours and no on-call plan)"


async def file_escalation(spine: Spine, transfer: Transfer) -> Transfer:
    """The escalation of a failed transfer, once (a retried request finds it filed)."""
    if transfer.escalation_id:
        return transfer
    escalation = Escalation(
        id=f"esc_{secrets.token_hex(6)}", org_id=transfer.org_id, property_id=transfer.property_id,
        person_id=transfer.caller_person_id, channel="voice", interaction_id=transfer.interaction_id,
        reason=f"Asked on a call for a person: {transfer.reason}"[:500], urgency=Priority(transfer.urgency),
        summary=f"Call transfer {transfer.id} (call {transfer.call_sid}): nobody accepted. Tried: {tried(transfer)}.",
    )

    def edit(t: Transfer) -> Transfer | None:
        if t.escalation_id:
            return None
        t.escalation_id = escalation.id
        return t

    changed = await change(spine, transfer.id, edit)
    if changed is None or changed.escalation_id != escalation.id:
        return changed or transfer  # another request filed it first
    await spine.put_escalation(escalation)
    await note(spine, changed, EventKind.TRANSFER_FAILED, f"nobody accepted; escalation {escalation.id}",
               escalation_id=escalation.id, tried=len(changed.attempts))
    return changed


async def add_message(spine: Spine, transfer_id: str, message: str) -> bool:
    """What the caller asked Clara to pass on, added to the transfer's escalation. True when added."""
    message = message.strip()[:MESSAGE_MAX_CHARS]
    transfer = await spine.get_transfer(transfer_id)
    if not message or transfer is None or not transfer.escalation_id:
        return False

    def edit(t: Transfer) -> Transfer | None:
        if t.message == message:
            return None
        t.message = message
        return t

    await change(spine, transfer_id, edit)
    added = f"\nThe caller's message, taken by Clara after the transfer: {message}"
    escalation_id = transfer.escalation_id
    result = await spine.change_escalation(escalation_id, lambda e: None if added.strip() in e.summary else
                                           e.model_copy(update={"summary": (e.summary + added)[:4000]}))
    return result is not None
