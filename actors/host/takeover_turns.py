"""The turns of a person whose conversation a staff member took over (actors.host.conversation_log
writes the messages; desk.console.takeover changes the state).

The conversation's head is read before the turn: while a staff member has taken it over, Clara
does not answer; the message is recorded unread, the staff member is told and only the
deterministic safety net still acts, so an emergency gets its safety reply and its page. The head
is changed again after the turn by compare-and-set, so a takeover that landed during the turn
withholds the reply. When the takeover has ended (hand-back, or staff silence), the next turn
first takes what was said meanwhile into Clara's transcript. A call while staff answer: Clara says
so and offers to take a message.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable

from actors.host.conversation_log import after_turn, record_held_reply
from actors.protocol.session import VoiceCallStart
from actors.protocol.turn import LoopOutcome, TurnDeps, TurnResult
from actors.turn.interaction import safety_net
from actors.turn.opening import Opening
from desk.console.takeover import taker_lost_access
from spine.conversation import Conversation, Mode, Takeover
from spine.envelope import MessageEnvelope
from spine.events import emit_event
from spine.records import AgentTrace, EventKind, TraceEvent, last4
from spine.repo import Spine
from spine.repo.base import Held

HELD_REPLY = "A staff member is handling this conversation and has your message."
TAKEOVER_CALL_GREETING = ("Hi, this is Clara. A member of our staff is handling your conversation right now. "
                          "I can take a message for them: what would you like me to pass on?")
TAKEOVER_CALL_NOTE = ("A staff member has taken this person's conversation over. Do not act on requests or make "
                      "promises: say that a staff member is handling the conversation, offer to take a message, "
                      "and say it will be passed on. An emergency still gets the safety advice and escalate_to_human.")


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


async def before_turn(deps: TurnDeps, person_id: str,
                      property_id: str) -> tuple[Conversation | None, list[dict[str, str]], Held | None]:
    """The head at the property, what to add to Clara's transcript first (a finished takeover not
    yet taken in; one whose staff member lost access to the property ends here) and, when the head
    was left as read, its item (the turn's own write after it then reads nothing)."""
    head, read = await deps.spine.read_conversation(person_id, property_id)
    held: Held | None = read
    if head is not None and (ended := await taker_lost_access(deps.spine, head)) is not None:
        head, held = ended, None
    takeover = head.takeover if head else None
    if head is None or takeover is None or takeover.active() or takeover.resumed:
        return head, [], held
    idle = takeover.ended_at is None

    def resume(current: Conversation | None) -> Conversation | None:
        t = current.takeover if current else None
        if current is None or t is None or t.active() or t.resumed:
            return None
        if t.ended_at is None:  # staff went silent: the takeover ended when their window closed
            t.ended_at, t.ended_by = t.idle_end(), "idle"
        t.resumed = True
        return current

    changed = await deps.spine.change_conversation(person_id, property_id, resume)
    if idle:
        await emit_event(deps.spine, EventKind.TAKEOVER_ENDED, "idle", channel=None, address=None,
                         property_id=head.property_id, interaction_id=None,
                         detail={"person_id": person_id, "staff_person_id": takeover.staff_person_id})
    return changed, resumed_history(takeover), None


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


async def held_late(deps: TurnDeps, result: TurnResult) -> TurnResult:
    """A turn that ended after a staff member took over: held like `held_turn`, its reply not sent
    (the trace says so)."""
    events = [*result.trace.events, TraceEvent(kind=EventKind.TAKEOVER_HELD, reason="taken over during the turn")]
    trace = result.trace.model_copy(update={"reply": "", "events": events})
    await deps.spine.put_trace(trace)
    return result.model_copy(update={"reply": "", "suppressed": True, "trace": trace})


async def taken_over_call(spine: Spine, person_id: str, start: VoiceCallStart) -> VoiceCallStart:
    """A call while staff answer (the conversation at the called property): Clara says so and offers
    to take a message."""
    head = await spine.get_conversation(person_id, start.property_id) if start.property_id else None
    if head is not None:
        head = await taker_lost_access(spine, head) or head
    if head is None or head.mode() != Mode.STAFF:
        return start
    return start.model_copy(update={"first_message": TAKEOVER_CALL_GREETING,
                                    "prompt": f"{start.prompt}\n\n{TAKEOVER_CALL_NOTE}"})


async def answer(deps: TurnDeps, env: MessageEnvelope, person_id: str, opening: Opening | None,
                 transcript: deque[dict[str, str]], run: Callable[[], Awaitable[TurnResult]]) -> TurnResult:
    """The person's turn: Clara's (`run`), unless a staff member answers them."""
    head, resumed, held = await before_turn(deps, person_id, env.property_id)
    transcript.extend(resumed)
    if head is not None and head.mode() == Mode.STAFF:
        result = await held_turn(deps, env, person_id, opening)
        await after_turn(deps, env, person_id, opening, result, held=held)
        if result.reply:
            await record_held_reply(deps, env, person_id, result.reply)
        return result
    result = await run()
    if not await after_turn(deps, env, person_id, opening, result, held=held):
        result = await held_late(deps, result)  # taken over during the turn
    return result
