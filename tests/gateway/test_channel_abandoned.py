"""An email or Telegram message a dead replica left `accepted` is failed by the sweep, and the
apology goes back the way the message came: by Mailgun to the sender's address, by sendMessage to
the Telegram chat."""
from __future__ import annotations

from datetime import timedelta

import spine.keys as keys
from gateway.channel_inbound import APOLOGY
from spine.context import Channel
from spine.identity import utcnow
from spine.records import AgentTrace, InboundMessage, InboundStatus, OutboxMessage


async def test_the_sweep_apologises_on_the_channel_the_message_came_by(make_channels, spine):
    ch = await make_channels()
    long_ago = utcnow() - timedelta(hours=1)
    for record in (InboundMessage(id="email:lost@example.com", channel=Channel.EMAIL, from_address="marcus@example.com",
                                  to_address="yale@clara.example", body="hi", received_at=long_ago),
                   InboundMessage(id="telegram:424242", channel=Channel.TELEGRAM, from_address="5550009",
                                  to_address="7000000100", body="hi", received_at=long_ago)):
        assert await spine.accept_inbound(record)
    settled = await ch.context.abandoned.sweep_once()
    assert {r.id: r.status for r in settled} == {"email:lost@example.com": InboundStatus.FAILED,
                                                 "telegram:424242": InboundStatus.FAILED}
    [email] = ch.mailgun.wait_for_sends(1)
    assert email.form["to"] == "marcus@example.com" and email.form["text"] == APOLOGY
    [message] = ch.telegram.wait_for_sends(1)
    assert message.payload == {"chat_id": 5550009, "text": APOLOGY}


async def test_an_email_whose_turn_ended_unrecorded_gets_the_turns_reply(make_channels, spine):
    # Its replica died between the turn's end and the send: the reply goes out by Mailgun, once.
    ch = await make_channels()
    record = InboundMessage(id="email:ended@example.com", channel=Channel.EMAIL, from_address="marcus@example.com",
                            to_address="yale@clara.example", body="hi", received_at=utcnow() - timedelta(hours=1),
                            interaction_id="ix_ended_email")
    assert await spine.accept_inbound(record)
    await spine.put_trace(AgentTrace(interaction_id="ix_ended_email", channel=Channel.EMAIL, reply="The pool opens at 8."))
    [repaired] = await ch.context.abandoned.sweep_once()
    assert repaired.status == InboundStatus.ANSWERED
    [email] = ch.mailgun.wait_for_sends(1)
    assert email.form["to"] == "marcus@example.com" and email.form["text"] == "The pool opens at 8."
    assert await ch.context.abandoned.sweep_once() == [] and len(ch.mailgun.wait_for_sends(1, timeout_s=0.5)) == 1


async def test_a_message_whose_reply_was_queued_unrecorded_ends_as_its_row_says_and_nothing_is_resent(
        make_channels, spine):
    # A store outage outlasted the write behind after the reply's row (or the apology's) was in the
    # outbox: the row is the outbox's to send, so the sweep only ends the record.
    ch = await make_channels()
    long_ago = utcnow() - timedelta(hours=1)
    queued = {"telegram:777001": "The pool opens at 8.", "telegram:777002": APOLOGY}
    for message_id, body in queued.items():
        assert await spine.accept_inbound(InboundMessage(
            id=message_id, channel=Channel.TELEGRAM, from_address="5550009", to_address="7000000100", body="hi",
            received_at=long_ago, interaction_id=f"ix_{message_id[-3:]}"))
        await spine.put_outbox(OutboxMessage(id=keys.reply_delivery(message_id), channel=Channel.TELEGRAM,
                                             to_address="5550009", from_address="7000000100", body=body))
    await spine.put_trace(AgentTrace(interaction_id="ix_001", channel=Channel.TELEGRAM, reply="The pool opens at 8."))
    settled = await ch.context.abandoned.sweep_once()
    assert {r.id: (r.status, r.reply) for r in settled} == {
        "telegram:777001": (InboundStatus.ANSWERED, "The pool opens at 8."),
        "telegram:777002": (InboundStatus.FAILED, None)}
    assert ch.telegram.wait_for_sends(1, timeout_s=0.5) == []  # the sweep sent neither again
