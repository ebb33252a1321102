"""The PersonActor's side of the console without the gateway: a call's transcript lands in the
conversation at its end, a call while staff answer gets Clara's "a staff member is handling it",
and what was said meanwhile comes back to Clara as her history, in order."""
from __future__ import annotations

from actors.host.conversation_log import record_call
from actors.host.takeover_turns import TAKEOVER_CALL_GREETING, resumed_history, taken_over_call
from actors.protocol.session import VoiceCallStart
from desk.console.takeover import hand_back, take_over
from spine.context import Channel
from spine.conversation import Takeover
from spine.records import AgentTrace, TranscriptEntry


async def test_a_calls_transcript_joins_the_conversation_at_its_end(spine):
    trace = AgentTrace(interaction_id="ix_call", channel=Channel.VOICE, participant_id="p_marcus",
                       property_id="pf_yale")
    said = [TranscriptEntry(role="agent", text="Hi Marcus, this is Clara."),
            TranscriptEntry(role="user", text="my heater is out"), TranscriptEntry(role="agent", text="On it.")]
    await record_call(spine, trace, said)
    await record_call(spine, trace, said)  # the stream's end and the post-call webhook: one call
    messages = await spine.messages_of("p_marcus", "pf_yale")
    assert [(m.author, m.text, m.channel) for m in messages] == [
        ("clara", "Hi Marcus, this is Clara.", "voice"), ("person", "my heater is out", "voice"), ("clara", "On it.", "voice")]
    head = await spine.get_conversation("p_marcus", "pf_yale")
    assert (head.last_channel, head.property_id) == (Channel.VOICE, "pf_yale")


async def test_a_call_while_staff_answer_offers_to_take_a_message(spine):
    start = VoiceCallStart(interaction_id="ix_c", dynamic_variables={}, prompt="You are Clara.", first_message="Hi!",
                           property_id="pf_yale")
    assert await taken_over_call(spine, "p_marcus", start) == start
    await take_over(spine, "p_marcus", "pf_yale", "p_priya", release_after_s=600)
    taken = await taken_over_call(spine, "p_marcus", start)
    assert taken.first_message == TAKEOVER_CALL_GREETING and "take a message" in taken.prompt
    await hand_back(spine, "p_marcus", "pf_yale", "p_priya")
    assert await taken_over_call(spine, "p_marcus", start) == start


def test_what_was_said_meanwhile_becomes_history_in_order():
    takeover = Takeover(staff_person_id="p_priya")
    for role, text in (("agent", "[Priya Shah, staff] Hi"), ("user", "hello"), ("user", "are you there?"),
                       ("agent", "[Priya Shah, staff] yes")):
        takeover.remember(TranscriptEntry(role=role, text=text))
    assert resumed_history(takeover) == [
        {"role": "assistant", "content": "[Priya Shah, staff] Hi"},
        {"role": "user", "content": "hello\nare you there?"},
        {"role": "assistant", "content": "[Priya Shah, staff] yes"}]
