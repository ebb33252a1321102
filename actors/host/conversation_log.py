"""Each turn's messages, written to the person's conversation by their PersonActor: what they
said and what Clara answered (a retried turn rewrites the same two), a call's transcript at its
end, in their conversation at the inbound property. The conversation head moves with them by
compare-and-set; a message that arrives while a
staff member answers is recorded unread and told to that staff member (`takeover/held`).
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

import spine.keys as keys
from actors.protocol.turn import TurnDeps, TurnResult
from actors.turn.opening import Opening
from desk.outbound.queue import NotificationKind, OutboundRequest, queue_outbound
from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage
from spine.envelope import MessageEnvelope
from spine.events import emit_event
from spine.identity import utcnow
from spine.records import AgentTrace, EventKind, TranscriptEntry
from spine.repo import Spine
from spine.repo.base import Held

log = logging.getLogger("clara.conversation")

HELD_NOTICE_CHARS = 300


def message_ids(interaction_id: str) -> tuple[str, str]:
    """The ids of a turn's two messages: what the person said and what Clara answered."""
    return f"{interaction_id}-in", f"{interaction_id}-out"


def _head(head: Conversation | None, env: MessageEnvelope, person_id: str, opening: Opening | None,
          at: datetime) -> Conversation:
    head = head or Conversation(person_id=person_id, property_id=env.property_id)
    head.last_at, head.last_channel = max(head.last_at, at), env.channel
    if opening is not None:
        head.name = opening.person.display_name if opening.person else head.name
        head.roles = sorted({str(r.role_type) for r in opening.roles})
    return head


async def after_turn(deps: TurnDeps, env: MessageEnvelope, person_id: str, opening: Opening | None,
                     result: TurnResult, *, held: Held | None = None) -> bool:
    """Write the turn's messages; False when a takeover started during the turn (the reply is held: not sent).
    The head first (`note=False`; `held`: as read before the turn, written after without a second
    read unless someone changed it meanwhile), then the messages with the one change in the feed."""
    said_id, reply_id = message_ids(env.interaction_id)
    answering = bool(result.reply and not result.suppressed)
    taken_over, waited = False, None

    def record(current: Conversation | None) -> Conversation:
        nonlocal taken_over, waited
        head = _head(current, env, person_id, opening, env.received_at)
        head.heard(env.received_at)
        taken_over = head.takeover is not None and head.takeover.active()
        waited = head.answered() if answering and not taken_over else None
        if taken_over and head.takeover is not None:
            head.unread += 1
            head.takeover.remember(TranscriptEntry(role="user", text=env.body))
        return head

    org_id = opening.authority.org_id if opening is not None else None
    head = await deps.spine.change_conversation(person_id, env.property_id, record, note=False, held=held)
    said = ConversationMessage(id=said_id, person_id=person_id, property_id=env.property_id, channel=env.channel,
                               interaction_id=env.interaction_id, at=env.received_at, author=Author.PERSON,
                               text=env.body, unread=taken_over)
    if taken_over and head is not None and head.takeover is not None:
        await deps.spine.put_message(said, org_id=org_id)
        await _tell_staff(deps, env, head, said_id)
        return False
    messages = [said]
    if answering:
        messages.append(said.model_copy(update={"id": reply_id, "at": utcnow(), "author": Author.CLARA,
                                                "text": result.reply}))
    await deps.spine.put_messages(messages, waited_since=waited, org_id=org_id)
    return True


async def record_held_reply(deps: TurnDeps, env: MessageEnvelope, person_id: str, reply: str) -> None:
    """The safety reply sent while staff answer, in the conversation (and in what Clara reads back)."""
    waited = None

    def remember(current: Conversation | None) -> Conversation | None:
        nonlocal waited
        if current is None or current.takeover is None:
            return None
        waited = current.answered()
        current.takeover.remember(TranscriptEntry(role="agent", text=reply))
        return current

    await deps.spine.change_conversation(person_id, env.property_id, remember, note=False)
    await deps.spine.put_message(ConversationMessage(
        id=message_ids(env.interaction_id)[1], person_id=person_id, property_id=env.property_id,
        channel=env.channel, author=Author.CLARA, text=reply, interaction_id=env.interaction_id), waited_since=waited)


async def _tell_staff(deps: TurnDeps, env: MessageEnvelope, head: Conversation, message_id: str) -> None:
    takeover = head.takeover
    assert takeover is not None
    who = head.name or "the person"
    notice = f"{who} wrote ({env.channel}): {env.body[:HELD_NOTICE_CHARS]}"
    try:
        sent = await queue_outbound(deps.spine, OutboundRequest(
            key=keys.held_turn_notice(message_id), kind=NotificationKind.STAFF, recipient_person_id=takeover.staff_person_id,
            property_id=env.property_id, body=notice))
        status = str(sent.status)
    except Exception as exc:  # noqa: BLE001 - the message is recorded and shown; the notice is extra
        log.error("held-message notice to %s failed: %s", takeover.staff_person_id, exc)
        status = "failed"
    await emit_event(deps.spine, EventKind.TAKEOVER_HELD, "staff answering", channel=env.channel,
                     address=env.from_address, property_id=env.property_id, interaction_id=env.interaction_id,
                     detail={"person_id": head.person_id, "staff_person_id": takeover.staff_person_id,
                             "notice": status})


async def record_call(spine: Spine, trace: AgentTrace, said: list[TranscriptEntry]) -> None:
    """A call's transcript, at its end, in the caller's conversation (staff see it like texts). A
    call answers the person as it happens: what they waited for since is no first response."""
    person_id, property_id = trace.participant_id, trace.property_id
    if person_id is None or property_id is None or not said:
        return

    def touch(current: Conversation | None) -> Conversation:
        head = current or Conversation(person_id=person_id, property_id=property_id)
        head.last_at, head.last_channel = max(head.last_at, trace.started_at), Channel.VOICE
        head.answered()
        return head

    await spine.change_conversation(person_id, property_id, touch, note=False)
    await spine.put_messages([ConversationMessage(
        id=f"{trace.interaction_id}-{n:04d}", person_id=person_id, property_id=property_id,
        at=trace.started_at + timedelta(microseconds=n), channel=Channel.VOICE,
        author=Author.PERSON if entry.role == "user" else Author.CLARA, text=entry.text,
        interaction_id=trace.interaction_id) for n, entry in enumerate(said)])
