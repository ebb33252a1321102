"""One inbound email, from a verified Mailgun form to a threaded reply through the messages API.

Accept the message durably first (create-if-absent on its Message-Id, so a redelivery never runs
a second turn), judge the sender (SPF or DKIM aligned with the From domain, else an unknown
address), handle "unsubscribe"/"subscribe" without a turn (only for a verified sender: from any
other they change nothing), then run the turn on the actor pool
and send Clara's reply in the same thread. Any failure after acceptance is recorded on the
InboundMessage and answered with an apology.
"""
from __future__ import annotations

import logging

import spine.keys as keys
from actors.protocol.turn import TurnResult
from desk.followups.answers import followup_reply
from desk.outbound.consent import opt_in_confirmation, opt_out_by_request, set_consent
from desk.outbound.may_send import may_reply
from gateway.api_turns import ApiTurns
from gateway.channel_inbound import ChannelInbound, InboundOutcome, InboundResult, new_interaction_id, turn_outcome
from gateway.email.authentication import SenderVerdict, judge_sender
from gateway.email.delivery import EmailDelivery
from gateway.email.inbound import InboundEmail, clean_subject
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.intent.optout import OptOutRequest, opt_out_request
from spine.participants import resolve_participant
from spine.property import Property
from spine.records import EventKind, InboundMessage

log = logging.getLogger("clara.email")

OPT_OUT_WORDS = frozenset({"unsubscribe"})
OPT_IN_WORDS = frozenset({"subscribe"})


class EmailResult(InboundResult):
    sender_verified: bool | None = None
    sender_check: str | None = None



def inbound_id(message_id: str) -> str:
    return f"email:{message_id}"


def reply_subject(mail: InboundEmail, prop: Property) -> str:
    """"Re: <their subject>" to a verified sender. To anyone else a fixed subject: the reply goes
    from the property's address to whatever From was written, so a stranger's words never ride
    on it (a forged From would receive them as the property's)."""
    if not judge_sender(mail).verified:
        return f"Re: your message to {prop.name}"
    subject = clean_subject(mail.subject) or "Your message"
    return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def thread_headers(mail: InboundEmail, prop: Property) -> dict[str, str]:
    """In-Reply-To and References that put the reply in the sender's thread, plus a
    List-Unsubscribe a mail client can offer (it sends the word Clara opts out on)."""
    own = f"<{mail.message_id}>"
    references = [r for r in mail.references if r != own][-20:] + [own]
    headers = {"In-Reply-To": own, "References": " ".join(references)}
    if prop.email:
        headers["List-Unsubscribe"] = f"<mailto:{prop.email}?subject=unsubscribe>"
    return headers


def keyword(mail: InboundEmail) -> str | None:
    """"unsubscribe" / "subscribe" as the whole message, or as the subject of an empty one."""
    text = mail.text.strip().lower().strip(".!")
    subject = mail.subject.strip().lower()
    word = text or subject
    return word if word in OPT_OUT_WORDS | OPT_IN_WORDS else None


def clara_reads(mail: InboundEmail) -> str:
    """The message as Clara reads it: the subject when it adds something, the new text, and a
    note of attachments she cannot open."""
    subject = mail.subject.removeprefix("Re:").removeprefix("RE:").strip()
    parts = [f"Subject: {subject}"] if subject and subject.lower() not in mail.text.lower() else []
    parts.append(mail.text)
    if mail.attachment_count:
        parts.append(f"[{mail.attachment_count} attachment(s) not read]")
    return "\n".join(p for p in parts if p).strip()


class EmailHandler:
    def __init__(self, log_: ChannelInbound, turns: ApiTurns, delivery: EmailDelivery) -> None:
        self.inbound, self.turns, self.delivery = log_, turns, delivery
        self.spine = log_.spine

    async def handle(self, mail: InboundEmail, prop: Property) -> EmailResult:
        """InboundNotAccepted when the message could not be accepted (the route answers 503 so
        Mailgun retries); otherwise the message is recorded and ends answered, ignored or failed."""
        record = InboundMessage(id=inbound_id(mail.message_id), channel=Channel.EMAIL, from_address=mail.from_address,
                                to_address=prop.email or mail.recipients[0], body=clara_reads(mail),
                                interaction_id=new_interaction_id())

        return await self.inbound.handle_once(
            record, lambda: self._process(record, mail, prop), apologise=lambda text: self._reply(record, mail, prop, text),
            ended=lambda end, interaction_id: EmailResult(outcome=end, interaction_id=interaction_id))

    async def _process(self, record: InboundMessage, mail: InboundEmail, prop: Property) -> EmailResult:
        verdict = judge_sender(mail)  # first: a keyword acts only for the address's verified owner
        word = keyword(mail)
        if word is not None and verdict.verified:
            return await self._keyword(record, mail, prop, word)
        if not await may_reply(self.spine, mail.from_address, Channel.EMAIL):
            await self._event(EventKind.OPTED_OUT_INBOUND, "sender_unsubscribed", record, prop)
            await self.inbound.blocked(record)
            return EmailResult(outcome=InboundOutcome.SENDER_OPTED_OUT)
        if word is not None:
            return await self._unverified_keyword(record, mail, prop, word, verdict)
        if (plain := opt_out_request(mail.text.strip() or mail.subject)) is not None:  # "please stop emailing me"
            if not verdict.verified:  # a forged From must not silence the owner's mail
                return await self._unverified_keyword(record, mail, prop, "unsubscribe", verdict)
            return await self._plain_opt_out(record, mail, prop, plain)
        if verdict.verified and (told := await followup_reply(self.spine, Channel.EMAIL, mail.from_address,
                                                               mail.text.strip())) is not None:
            await self.inbound.answered(record, told.reply, lambda body: self._reply(record, mail, prop, body))
            return EmailResult(outcome=InboundOutcome.ANSWERED, sender_verified=True, reply=told.reply)
        envelope = await self._envelope(record, mail, prop, verdict)

        async def on_end(result: TurnResult | None, error: BaseException | None) -> None:
            await self._turn_ended(record, mail, prop, result, error)

        if await self.turns.run(envelope, on_end):
            outcome = turn_outcome(record)
        else:
            await self._event(EventKind.REPLY_DEFERRED, "turn_exceeded_inline_budget", record, prop)
            outcome = InboundOutcome.DEFERRED
        return EmailResult(outcome=outcome, interaction_id=record.interaction_id, sender_verified=verdict.verified,
                           sender_check=verdict.reason, reply=record.reply)

    async def _keyword(self, record: InboundMessage, mail: InboundEmail, prop: Property, word: str) -> EmailResult:
        """"unsubscribe" / "subscribe" from the verified owner of the address: no turn."""
        opted_out = word in OPT_OUT_WORDS
        await set_consent(self.spine, Channel.EMAIL, mail.from_address, opted_out=opted_out, keyword=word,
                          property_id=prop.id, detail={"message_id": record.id})
        if opted_out:
            await self.inbound.blocked(record)
            return EmailResult(outcome=InboundOutcome.OPTED_OUT, sender_verified=True)
        text = opt_in_confirmation(Channel.EMAIL, prop.name)
        await self.inbound.answered(record, text, lambda body: self._reply(record, mail, prop, body))
        return EmailResult(outcome=InboundOutcome.OPTED_IN, sender_verified=True)

    async def _plain_opt_out(self, record: InboundMessage, mail: InboundEmail, prop: Property,
                             plain: OptOutRequest) -> EmailResult:
        """A plain request to stop from the verified owner: opted out as "unsubscribe" does, and
        told so in their language (the one email an opt-out still gets)."""
        text = await opt_out_by_request(self.spine, Channel.EMAIL, mail.from_address, plain, message_id=record.id,
                                        property_id=prop.id, property_name=prop.name)
        await self.inbound.answered(record, text, lambda body: self._reply(record, mail, prop, body, confirms=True))
        return EmailResult(outcome=InboundOutcome.OPTED_OUT, sender_verified=True, reply=text)

    async def _unverified_keyword(self, record: InboundMessage, mail: InboundEmail, prop: Property, word: str,
                                  verdict: SenderVerdict) -> EmailResult:
        """A keyword from a From nobody authenticated changes nothing (a forged "unsubscribe" would
        silence the owner's real mail). The address is told so, in a fixed text that repeats
        nothing the sender wrote: no turn runs."""
        await self.inbound.emit(EventKind.SENDER_UNVERIFIED, f"{word}_not_applied", record.from_address, prop.id, None,
                                {"message_id": record.id, "sender_check": verdict.reason})
        text = (f"We could not confirm that this \"{word}\" came from {mail.from_address}, so nothing was changed. "
                f"To change what {prop.name} sends you, write from your own mail account or ask the office.")
        await self.inbound.answered(record, text, lambda body: self._reply(record, mail, prop, body))
        return EmailResult(outcome=InboundOutcome.ANSWERED, sender_verified=False, sender_check=verdict.reason,
                           reply=text)

    async def _envelope(self, record: InboundMessage, mail: InboundEmail, prop: Property,
                        verdict: SenderVerdict) -> MessageEnvelope:
        participant = await resolve_participant(self.spine, Channel.EMAIL, mail.from_address) if verdict.verified else None
        assert record.interaction_id is not None  # every accepted inbound starts an interaction
        return MessageEnvelope(
            message_id=record.id, interaction_id=record.interaction_id, channel=Channel.EMAIL,
            from_address=mail.from_address, to_address=record.to_address, body=record.body, property_id=prop.id,
            participant_id=participant, received_at=record.received_at,
            sender_verified=verdict.verified, sender_check=verdict.reason)

    async def _turn_ended(self, record: InboundMessage, mail: InboundEmail, prop: Property,
                          result: TurnResult | None, error: BaseException | None) -> None:
        """Record how the turn ended and send its reply (or the apology) in the sender's thread."""
        await self.inbound.turn_ended(record, result, error, send=lambda text: self._reply(record, mail, prop, text))

    async def _reply(self, record: InboundMessage, mail: InboundEmail, prop: Property, text: str,
                     confirms: bool = False) -> None:
        await self.delivery.send(key=keys.reply_delivery(record.id), to=mail.from_address, from_=record.to_address,
                                 body=text, subject=reply_subject(mail, prop), headers=thread_headers(mail, prop),
                                 confirms_opt_out=confirms)

    async def _event(self, kind: EventKind, reason: str, record: InboundMessage, prop: Property | None) -> None:
        await self.inbound.emit(kind, reason, record.from_address, prop.id if prop else None, None,
                                {"message_id": record.id})
