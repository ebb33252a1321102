"""How a transfer moves, one Twilio request at a time: a target rung, a whisper answered, a
`<Dial>` ended. Every change is a compare-and-set on the transfer (Twilio retries a request it got
no answer to; a retry must not skip a person), and each one is an event and an entry in the call's
trace, so operators read the transfer the way they read the rest of the call."""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from desk.transfer.plan import rung_by_a_page
from spine.context import Channel
from spine.events import emit_event
from spine.records import AgentTrace, EventKind, TraceEvent
from spine.repo import Spine
from spine.transfer import Transfer, TransferAttempt, TransferOutcome, TransferTarget

CAS_TRIES = 5
ACCEPT_DIGIT = "1"


async def change(spine: Spine, transfer_id: str, edit: Callable[[Transfer], Transfer | None], *,
                 held: tuple[Transfer, int] | None = None) -> Transfer | None:
    """Apply `edit` by compare-and-set; `edit` returning None changes nothing. The transfer as it
    then stands (None when there is none). `held`: the transfer and its version as the caller
    already has them (written or read just now), tried first without reading it again."""
    for _ in range(CAS_TRIES):
        was_held = held is not None
        found, held = held or await spine.read_transfer(transfer_id), None
        if found is None:
            return None
        current, version = found
        edited = edit(current.model_copy(deep=True))
        if edited is None and was_held:
            continue  # nothing to do as the caller saw it: as it stands now, then
        if edited is None or await spine.replace_transfer(edited, version):
            return edited or current
    return await spine.get_transfer(transfer_id)


async def note(spine: Spine, transfer: Transfer, kind: EventKind, reason: str, *,
               trace_lines: list[TraceEvent] | None = None, **detail: object) -> None:
    """An event, and the same line in the call's trace (what /admin/traces shows for the call).
    `trace_lines`: where a caller about to write the trace anyway collects the line (one write)."""
    await emit_event(spine, kind, reason, channel=Channel.VOICE, address=transfer.caller_number or None,
                     property_id=transfer.property_id, interaction_id=transfer.interaction_id,
                     detail={"transfer_id": transfer.id, **detail})
    line = TraceEvent(kind=kind, reason=f"{transfer.id}: {reason}")
    if trace_lines is not None:
        trace_lines.append(line)
        return

    def add(trace: AgentTrace) -> bool:
        trace.events.append(line)
        return True

    await spine.change_trace(transfer.interaction_id, add)


async def ring_next(spine: Spine, transfer_id: str, now: datetime | None = None) -> Transfer | None:
    """The target to dial now, recorded as an attempt: the current one, passing by anyone a page of
    this property is ringing at this moment. A transfer with nobody left is returned as it is
    (its `current` is None); a retried request dials the same target again."""
    transfer = await spine.get_transfer(transfer_id)
    if transfer is None or transfer.outcome in (TransferOutcome.CONNECTED, TransferOutcome.FAILED):
        return transfer
    index = transfer.index
    while index < len(transfer.targets) and await _busy(spine, transfer, transfer.targets[index]):
        index += 1
    at = now or spine.clock()

    def edit(t: Transfer) -> Transfer:
        skipped = [TransferAttempt(index=i, at=at, status="skipped: rung by the page") for i in range(t.index, index)]
        t.attempts += skipped
        t.index = index
        if t.current is not None and not any(a.index == index for a in t.attempts):
            t.attempts.append(TransferAttempt(index=index, at=at))
        t.outcome = TransferOutcome.RINGING
        return t

    changed = await change(spine, transfer_id, edit)
    if changed is not None and changed.current is not None:
        await note(spine, changed, EventKind.TRANSFER_RINGING, changed.current.label, index=changed.index)
    return changed


async def _busy(spine: Spine, transfer: Transfer, target: TransferTarget) -> bool:
    return await rung_by_a_page(spine, target.person_id, transfer.property_id)


async def whisper_answered(spine: Spine, transfer_id: str, index: int, digits: str) -> Transfer | None:
    """1 from the person rung (target `index`): the transfer is theirs (connected once Twilio bridges
    the legs, which it does as soon as the whisper ends without hanging up). Anything else: declined."""
    accepted = digits.strip() == ACCEPT_DIGIT

    def edit(t: Transfer) -> Transfer | None:
        if t.outcome != TransferOutcome.RINGING or t.index != index:
            return None
        _attempt(t).status = "accepted" if accepted else "declined"
        if accepted:
            t.accepted_index, t.outcome = t.index, TransferOutcome.CONNECTED
        return t

    changed = await change(spine, transfer_id, edit)
    if changed is not None and accepted and changed.outcome == TransferOutcome.CONNECTED and changed.current:
        await note(spine, changed, EventKind.TRANSFER_CONNECTED, changed.current.label, index=changed.index)
    return changed


async def dial_ended(spine: Spine, transfer_id: str, index: int, dial_status: str) -> Transfer | None:
    """The `<Dial>` of target `index` ended. Connected: done (the call with the person is over).
    Else the next target, or none left: `failed`, for the caller (the route files the escalation and
    hands them back). A retried request (the index already moved on) changes nothing."""

    def edit(t: Transfer) -> Transfer | None:
        if t.index != index:
            return None
        if t.outcome == TransferOutcome.CONNECTED and t.accepted_index == t.index:
            if t.ended_at is None:
                t.ended_at = spine.clock()
                return t
            return None
        if t.outcome != TransferOutcome.RINGING:
            return None
        attempt = _attempt(t)
        if attempt.status == "ringing":
            attempt.status = dial_status or "no-answer"
        t.index += 1
        if t.current is None:
            t.outcome, t.ended_at = TransferOutcome.FAILED, spine.clock()
        return t

    return await change(spine, transfer_id, edit)


def _attempt(t: Transfer) -> TransferAttempt:
    mine = [a for a in t.attempts if a.index == t.index]
    if not mine:
        t.attempts.append(TransferAttempt(index=t.index))
        return t.attempts[-1]
    return mine[-1]
