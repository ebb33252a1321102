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
    # A store outage outlasted the write behind after the reply's rows (or the apology's) were in
    # the outbox, written as each channel's sender writes them: they are the outbox's to send, so
    # the sweep only ends the records.
    ch = await make_channels()
    long_ago = utcnow() - timedelta(hours=1)
    sid = "SM" + "7" * 32
    queued = [  # (the message, its first reply row, what was queued)
        (InboundMessage(id="telegram:777001", channel=Channel.TELEGRAM, from_address="5550009",
                        to_address="7000000100", body="hi"), keys.reply_part(keys.reply_delivery("telegram:777001"), 0),
         "The pool opens at 8."),
        (InboundMessage(id="email:q@example.com", channel=Channel.EMAIL, from_address="marcus@example.com",
                        to_address="yale@clara.example", body="hi"), keys.reply_delivery("email:q@example.com"),
         "Your renewal is in."),
        (InboundMessage(id=sid, channel=Channel.SMS, from_address="+12065551001", to_address="+12065550100",
                        body="hi"), keys.reply_part(sid, 0), APOLOGY)]  # a late SMS apology, by REST
    for record, row_id, body in queued:
        assert await spine.accept_inbound(record.model_copy(update={"received_at": long_ago,
                                                                    "interaction_id": f"ix_q_{record.id}"}))
        await spine.put_outbox(OutboxMessage(id=row_id, channel=record.channel, to_address=record.from_address,
                                             from_address=record.to_address, body=body))
    settled = await ch.context.abandoned.sweep_once()
    assert {r.id: (r.status, r.reply) for r in settled} == {
        "telegram:777001": (InboundStatus.ANSWERED, "The pool opens at 8."),
        "email:q@example.com": (InboundStatus.ANSWERED, "Your renewal is in."),
        sid: (InboundStatus.FAILED, None)}
    assert await spine.get_outbox(keys.apology_delivery(sid) + "-0") is None  # no second apology
    assert ch.telegram.wait_for_sends(1, timeout_s=0.3) == [] and ch.mailgun.wait_for_sends(1, timeout_s=0.3) == []
