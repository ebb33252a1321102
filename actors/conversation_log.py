"""The PersonActor's side of the staff console: each turn's messages written to the person's
conversation, and the turns held while a staff member answers.

Every turn of a known person writes what they said and what Clara answered (a retried turn
rewrites the same two messages). The conversation's head is read before the turn: while a staff
member has taken it over, Clara does not answer; the message is recorded unread, the staff member
is told (`takeover/held`) and only the deterministic safety net still acts, so an emergency gets
its safety reply and its page. The head is changed again after the turn by compare-and-set, so a
takeover that landed during the turn withholds the reply. When the takeover has ended (hand-back,
or staff silence), the next turn first takes what was said meanwhile into Clara's transcript.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta

from actors.interaction import safety_net
from actors.opening import Opening
from actors.turn_types import LoopOutcome, TurnDeps, TurnResult
from actors.voice_opening import VoiceCallStart
from spine.context import Channel
from spine.conversation import Author, Conversation, ConversationMessage, Mode, Takeover
from spine.envelope import MessageEnvelope
from spine.events import emit_event
from spine.identity import utcnow
from spine.outbound import NotificationKind, OutboundRequest, queue_outbound
from spine.records import AgentTrace, EventKind, TraceEvent, TranscriptEntry, last4
from spine.repo import Spine

log = logging.getLogger("clara.conversation")

HELD_REPLY = "A staff member is handling this conversation and has your message."
HELD_NOTICE_CHARS = 300


def message_ids(interaction_id: str) -> tuple[str, str]:
    """The ids of a turn's two messages: what the person said and what Clara answered."""
    return f"{interaction_id}-in", f"{interaction_id}-out"


def _head(head: Conversation | None, env: MessageEnvelope, person_id: str, opening: Opening | None,
          at: datetime) -> Conversation:
    head = head or Conversation(person_id=person_id)
    head.last_at, head.last_channel, head.property_id = max(head.last_at, at), env.channel, env.property_id
    if opening is not None:
        head.name = opening.person.display_name if opening.person else head.name
        head.roles = sorted({str(r.role_type) for r in opening.roles})
    return head


def resumed_history(takeover: Takeover) -> list[dict[str, str]]:
    """What was said while staff answered, as model-history messages (consecutive ones merged)."""
    history: list[dict[str, str]] = []
    for entry in takeover.said:
        role = "user" if entry.role == "user" else "assistant"
        if history and history[-1]["role"] == role:
            history[-1]["content"] += "\n" + entry.text
        else:
            history.append({"role": role, "content": entry.text})
    return history


async def before_turn(deps: TurnDeps, person_id: str) -> tuple[Conversation | None, list[dict[str, str]]]:
    """The head, and what to add to Clara's transcript first: a finished takeover not yet taken in."""
    head = await deps.spine.get_conversation(person_id)
    takeover = head.takeover if head else None
    if head is None or takeover is None or takeover.active() or takeover.resumed:
        return head, []
    idle = takeover.ended_at is None

    def resume(current: Conversation | None) -> Conversation | None:
        t = current.takeover if current else None
        if current is None or t is None or t.active() or t.resumed:
            return None
        if t.ended_at is None:  # staff went silent: the takeover ended when their window closed
            t.ended_at, t.ended_by = t.idle_end(), "idle"
        t.resumed = True
        return current

    changed = await deps.spine.change_conversation(person_id, resume)
    if idle:
        await emit_event(deps.spine, EventKind.TAKEOVER_ENDED, "idle", channel=None, address=None,
                         property_id=head.property_id, interaction_id=None,
                         detail={"person_id": person_id, "staff_person_id": takeover.staff_person_id})
    return changed, resumed_history(takeover)


async def after_turn(deps: TurnDeps, env: MessageEnvelope, person_id: str, opening: Opening | None,
                     result: TurnResult) -> bool:
    """Write the turn's messages; False when a takeover started during the turn (the reply is withheld)."""
    said_id, reply_id = message_ids(env.interaction_id)
    taken_over = False

    def record(current: Conversation | None) -> Conversation:
        nonlocal taken_over
        head = _head(current, env, person_id, opening, env.received_at)
        taken_over = head.takeover is not None and head.takeover.active()
        if taken_over and head.takeover is not None:
            head.unread += 1
            head.takeover.remember(TranscriptEntry(role="user", text=env.body))
        return head

    head = await deps.spine.change_conversation(person_id, record)
    said = ConversationMessage(id=said_id, person_id=person_id, property_id=env.property_id, channel=env.channel,
                               interaction_id=env.interaction_id, at=env.received_at, author=Author.PERSON,
                               text=env.body, unread=taken_over)
    await deps.spine.put_message(said)
    if taken_over and head is not None and head.takeover is not None:
        await _tell_staff(deps, env, head, said_id)
        return False
    if result.reply and not result.suppressed:
        await deps.spine.put_message(said.model_copy(update={"id": reply_id, "at": utcnow(), "author": Author.CLARA,
                                                             "text": result.reply}))
    return True


async def held_turn(deps: TurnDeps, env: MessageEnvelope, person_id: str, opening: Opening | None) -> TurnResult:
    """A message while staff answer: recorded and told to the staff member; Clara stays silent,
    except the safety net's reply and page for an emergency."""
    out = LoopOutcome()
    events = [TraceEvent(kind=EventKind.TAKEOVER_HELD, reason="staff answering")]
    if opening is not None:
        events += await safety_net(deps, opening.caller(env.interaction_id, env.channel), env, out)
    reply = f"{out.reply} {HELD_REPLY}" if out.reply else ""
    trace = AgentTrace(interaction_id=env.interaction_id, channel=env.channel, participant_id=person_id,
                       property_id=env.property_id, wire_address_last4=last4(env.from_address),
                       tool_calls=out.tool_calls, inbound=env.body, reply=reply, events=events,
                       started_at=env.received_at)
    await deps.spine.put_trace(trace)
    return TurnResult(interaction_id=env.interaction_id, person_id=person_id, reply=reply, suppressed=not reply,
                      trace=trace)


async def record_held_reply(deps: TurnDeps, env: MessageEnvelope, person_id: str, reply: str) -> None:
    """The safety reply sent while staff answer, in the conversation (and in what Clara reads back)."""
    def remember(current: Conversation | None) -> Conversation | None:
        if current is None or current.takeover is None:
            return None
        current.takeover.remember(TranscriptEntry(role="agent", text=reply))
        return current

    await deps.spine.change_conversation(person_id, remember)
    await deps.spine.put_message(ConversationMessage(
        id=message_ids(env.interaction_id)[1], person_id=person_id, property_id=env.property_id,
        channel=env.channel, author=Author.CLARA, text=reply, interaction_id=env.interaction_id))


async def _tell_staff(deps: TurnDeps, env: MessageEnvelope, head: Conversation, message_id: str) -> None:
    takeover = head.takeover
    assert takeover is not None
    who = head.name or "the person"
    notice = f"{who} wrote ({env.channel}): {env.body[:HELD_NOTICE_CHARS]}"
    try:
        sent = await queue_outbound(deps.spine, OutboundRequest(
            key=f"held-{message_id}", kind=NotificationKind.STAFF, recipient_person_id=takeover.staff_person_id,
            property_id=env.property_id, body=notice))
        status = str(sent.status)
    except Exception as exc:  # noqa: BLE001 - the message is recorded and shown; the notice is extra
        log.error("held-message notice to %s failed: %s", takeover.staff_person_id, exc)
        status = "failed"
    await emit_event(deps.spine, EventKind.TAKEOVER_HELD, "staff answering", channel=env.channel,
                     address=env.from_address, property_id=env.property_id, interaction_id=env.interaction_id,
                     detail={"person_id": head.person_id, "staff_person_id": takeover.staff_person_id,
                             "notice": status})


async def withheld(deps: TurnDeps, result: TurnResult) -> TurnResult:
    """A turn that ended after a staff member took over: its reply is not sent (the trace says so)."""
    events = [*result.trace.events, TraceEvent(kind=EventKind.TAKEOVER_HELD, reason="taken over during the turn")]
    trace = result.trace.model_copy(update={"reply": "", "events": events})
    await deps.spine.put_trace(trace)
    return result.model_copy(update={"reply": "", "suppressed": True, "trace": trace})


TAKEOVER_CALL_GREETING = ("Hi, this is Clara. A member of our staff is handling your conversation right now. "
                          "I can take a message for them: what would you like me to pass on?")
TAKEOVER_CALL_NOTE = ("A staff member has taken this person's conversation over. Do not act on requests or make "
                      "promises: say that a staff member is handling the conversation, offer to take a message, "
                      "and say it will be passed on. An emergency still gets the safety advice and escalate_to_human.")


async def taken_over_call(spine: Spine, person_id: str, start: VoiceCallStart) -> VoiceCallStart:
    """A call while staff answer: Clara says so and offers to take a message."""
    head = await spine.get_conversation(person_id)
    if head is None or head.mode() != Mode.STAFF:
        return start
    return start.model_copy(update={"first_message": TAKEOVER_CALL_GREETING,
                                    "prompt": f"{start.prompt}\n\n{TAKEOVER_CALL_NOTE}"})


async def record_call(spine: Spine, trace: AgentTrace, said: list[TranscriptEntry]) -> None:
    """A call's transcript, at its end, in the caller's conversation (staff see it like texts)."""
    person_id = trace.participant_id
    if person_id is None or not said:
        return
    for n, entry in enumerate(said):
        await spine.put_message(ConversationMessage(
            id=f"{trace.interaction_id}-{n:04d}", person_id=person_id, property_id=trace.property_id,
            at=trace.started_at + timedelta(microseconds=n), channel=Channel.VOICE,
            author=Author.PERSON if entry.role == "user" else Author.CLARA, text=entry.text,
            interaction_id=trace.interaction_id))

    def touch(current: Conversation | None) -> Conversation:
        head = current or Conversation(person_id=person_id)
        head.last_at, head.last_channel = max(head.last_at, trace.started_at), Channel.VOICE
        head.property_id = trace.property_id or head.property_id
        return head

    await spine.change_conversation(person_id, touch)
