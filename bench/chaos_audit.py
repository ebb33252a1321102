"""What happened to every message of bench/chaos.py, read from what was really observed.

For each inbound the load sent: its record in the store's inbound log (absent: never accepted),
and every delivery the providers' stand-ins received for it: the TwiML <Message>s Twilio got
back inline, the messages created through Twilio's REST API, the emails Mailgun was asked to
send (threaded on the inbound's Message-Id), the Telegram sendMessage calls. A reply names its
message by the tag the model repeats; an apology carries no tag, so it is found through the
outbox row the gateway wrote for it (the apology's own key, or the reply key it took) and
counted only when the provider holds a message of that text to that recipient.

  answered    a reply (not an apology) reached the sender, once
  apologised  an apology (APOLOGY or the model-down fallback) reached the sender, and no reply
  lost        accepted (the inbound log has it) or answered 200, yet nothing reached the sender
  twice       more than one answer reached the sender for one message
  5xx         answers >= 500 a provider saw, other than 503: the store-down answer every route
              documents as 'retry shortly' (gateway/health.py; email and Telegram rely on their
              provider's retry), counted apart as retryable 503s, and an SMS primary's failure
              the fallback request then answered (gateway/twilio/params.py FALLBACK), counted
              apart as `fallback`
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from actors.turn.interaction import FALLBACK_REPLY
from bench.chaos_load import TAG, Call, Message
from gateway.channel_inbound import APOLOGY
from spine.records import OutboxStatus
from spine.repo import Spine

APOLOGIES = (APOLOGY, FALLBACK_REPLY)


def is_apology(text: str) -> bool:
    return any(text.startswith(a[:40]) for a in APOLOGIES)


@dataclass
class Delivered:
    """Provider-side deliveries: replies by tag, apologies by (channel, recipient)."""

    replies: Counter = field(default_factory=Counter)
    apologies: Counter = field(default_factory=Counter)


def provider_deliveries(twilio, mailgun, telegram) -> Delivered:
    seen = Delivered()

    def add(channel: str, to: str, text: str) -> None:
        tags = TAG.findall(text)
        for tag in set(tags):
            seen.replies[tag] += 1
        if not tags and is_apology(text):
            seen.apologies[(channel, to)] += 1

    for sms in twilio.accepted():
        add("sms", sms.to, sms.body)
    for mail in mailgun.sent:
        if mailgun.delivered(mail):
            add("email", mail.form.get("to", ""), mail.form.get("text", ""))
    for call in telegram.sent():
        add("telegram", str(call.payload.get("chat_id")), str(call.payload.get("text", "")))
    return seen


def apology_rows(message: Message) -> list[str]:
    """The outbox rows an apology for this message could have gone out under."""
    if message.channel == "sms":
        return [f"{message.id}-0", f"abandoned-{message.id}-0"]
    if message.channel == "email":
        return [f"{message.id}-reply", f"abandoned-{message.id}"]
    return [f"{message.id}-reply-0", f"abandoned-{message.id}-0"]


@dataclass
class Tally:
    sent: int = 0
    accepted: int = 0
    answered: int = 0
    apologised: int = 0
    lost: int = 0
    twice: int = 0
    bad_5xx: int = 0
    retry_503: int = 0
    fallback: int = 0  # SMS primaries that failed (5xx, reset) and whose fallback request took 200
    unaccepted: int = 0  # refused every attempt and never in the inbound log (the provider gave up)
    calls: int = 0
    calls_ok: int = 0
    slowest_s: float = 0.0  # the longest any request took, redeliveries included
    examples: list[str] = field(default_factory=list)

    def add_status(self, channel: str, status: int) -> None:
        if status == 503:
            self.retry_503 += 1
        elif status >= 500:
            self.bad_5xx += 1


async def judge(spine: Spine, message: Message, seen: Delivered, tally: Tally) -> str:
    """The message's fate: answered | apologised | lost | unaccepted; `twice` counted beside."""
    record = await spine.get_inbound(message.id)
    inline = [part for part in message.inline.split(" / ") if part] if message.accepted_http else []
    replies = sum(1 for part in inline if message.tag in part) + seen.replies[message.tag]
    apologies = sum(1 for part in inline if is_apology(part))
    to = message.sender
    for row_id in apology_rows(message):
        row = await spine.get_outbox(row_id)
        if row is not None and row.status == OutboxStatus.SENT and is_apology(row.body) \
                and seen.apologies[(message.channel, row.to_address or to)] > 0:
            seen.apologies[(message.channel, row.to_address or to)] -= 1
            apologies += 1
    if replies + apologies > 1:
        tally.twice += 1
        tally.examples.append(f"twice: {message.channel} {message.id} replies={replies} apologies={apologies}")
    if replies:
        return "answered"
    if apologies:
        return "apologised"
    if record is None and not message.accepted_http:
        return "unaccepted"
    tally.examples.append(f"lost: {message.channel} {message.id} record={record.status if record else None} "
                          f"statuses={message.statuses}")
    return "lost"


async def tally_of(spine: Spine, messages: list[Message], calls: list[Call], seen: Delivered) -> Tally:
    tally = Tally()
    for message in messages:
        tally.sent += 1
        tally.slowest_s = max(tally.slowest_s, message.done_at - message.sent_at)
        for status in message.statuses:
            tally.add_status(message.channel, status)
        if any(status >= 500 and status != 503 for status in message.statuses):
            tally.examples.append(f"5xx: {message.channel} {message.id} statuses={message.statuses} "
                                  f"rescued={message.rescued} took {message.done_at - message.sent_at:.1f}s")
        tally.fallback += len(message.rescued)
        fate = await judge(spine, message, seen, tally)
        tally.accepted += fate != "unaccepted"
        setattr(tally, fate, getattr(tally, fate) + 1)
    for call in calls:
        tally.calls += 1
        tally.slowest_s = max(tally.slowest_s, call.done_at - call.sent_at)
        tally.calls_ok += call.ok
        if not call.ok:
            tally.examples.append(f"voice {call.kind}: HTTP {call.status} {call.detail[:160]}")
        tally.add_status("voice", call.status)
    return tally


def normal(message: Message, slow_s: float) -> bool:
    """Answered at once and inline-fast: a tagged reply in the SMS TwiML, or a 200 for the others
    (their reply leaves by API) with no refused attempt, within `slow_s`."""
    if message.statuses != [200] or message.done_at - message.sent_at > slow_s:
        return False
    return message.channel != "sms" or message.tag in message.inline


def recovery_s(messages: list[Message], calls: list[Call], since: float, slow_s: float) -> float:
    """From `since` (the fault, or the end of a fault window) to the end of the last request
    that was not served normally: 0 when none was degraded after `since`."""
    ends = [m.done_at for m in messages if not normal(m, slow_s) and m.done_at >= since]
    ends += [c.done_at for c in calls if (not c.ok or c.done_at - c.sent_at > slow_s) and c.done_at >= since]
    return max(ends, default=since) - since
