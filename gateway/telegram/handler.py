"""One Telegram update, from a verified webhook to Clara's reply through sendMessage.

Accept the update durably first (create-if-absent on update_id, so a redelivery never runs a
second turn). A shared contact links the user to the Person holding that phone, but only when the
contact is the sender's own (`contact.user_id == from.id`); /stop and /start opt out and in; any
other private message runs the turn on the actor pool. A user not linked by contact is an
unknown address, and Clara's reply carries the "share my phone number" button.
"""
from __future__ import annotations

import logging

import spine.keys as keys
from actors.protocol.turn import TurnResult
from desk.followups.answers import followup_reply
from desk.outbound.consent import opt_out_by_request, set_consent
from desk.outbound.may_send import may_reply
from gateway.api_turns import ApiTurns
from gateway.channel_inbound import ChannelInbound, InboundOutcome, InboundResult, new_interaction_id, turn_outcome
from gateway.telegram.delivery import TelegramDelivery
from gateway.telegram.wire import Contact, Message, ReplyKeyboardRemove, Update, share_contact_keyboard
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.intent.optout import opt_out_request
from spine.links import link_telegram_user, linked_person
from spine.participants import resolve_participant
from spine.phone import InvalidPhoneNumber, normalize_phone
from spine.property import Property
from spine.records import EventKind, InboundMessage

log = logging.getLogger("clara.telegram")


class TelegramResult(InboundResult):
    person_id: str | None = None



def inbound_id(update_id: int) -> str:
    return f"telegram:{update_id}"


def command(text: str) -> str | None:
    """"/stop", "/start" (also "/start@bot payload"), lower-cased; None for ordinary text."""
    word = text.strip().split(maxsplit=1)[0].lower() if text.strip().startswith("/") else ""
    return word.split("@", 1)[0] or None


def own_phone(contact: Contact) -> str:
    """The contact's phone as E.164 (Telegram sends international digits, often without '+')."""
    raw = contact.phone_number.strip()
    return normalize_phone(raw if raw.startswith("+") else "+" + raw.lstrip("0"))


class TelegramHandler:
    def __init__(self, log_: ChannelInbound, turns: ApiTurns, delivery: TelegramDelivery) -> None:
        self.inbound, self.turns, self.delivery = log_, turns, delivery
        self.spine = log_.spine

    async def handle(self, update: Update, prop: Property) -> TelegramResult:
        """InboundNotAccepted when the update could not be accepted (the route answers 503 so
        Telegram retries); otherwise the update is recorded and ends answered, ignored or failed."""
        edited = update.message is None and update.edited_message is not None
        message = update.message or update.edited_message
        if message is None or message.chat.type != "private" or message.from_ is None or message.from_.is_bot:
            return TelegramResult(outcome=InboundOutcome.IGNORED)  # not a person writing to the bot 1:1
        text = (message.text or message.caption or "").strip()
        record = InboundMessage(id=inbound_id(update.update_id), channel=Channel.TELEGRAM,
                                from_address=str(message.from_.id), to_address=prop.telegram_bot_id or prop.id,
                                body=("(edited) " if edited else "") + text, interaction_id=new_interaction_id())
        return await self.inbound.handle_once(
            record, lambda: self._process(record, message, prop),
            apologise=lambda text: self._send(record, message, text),
            ended=lambda end, interaction_id: TelegramResult(outcome=end,
                                                             interaction_id=interaction_id))

    async def _process(self, record: InboundMessage, message: Message, prop: Property) -> TelegramResult:
        if message.contact is not None:
            return await self._link(record, message, message.contact, prop)
        word = command(record.body)
        if word == "/stop":
            await set_consent(self.spine, Channel.TELEGRAM, record.from_address, opted_out=True, keyword=word,
                              property_id=prop.id, detail={"message_id": record.id})
            await self.inbound.blocked(record)
            return TelegramResult(outcome=InboundOutcome.OPTED_OUT)
        if word == "/start":
            return await self._start(record, message, prop)
        if not await may_reply(self.spine, record.from_address, Channel.TELEGRAM):
            await self._event(EventKind.OPTED_OUT_INBOUND, "sender_sent_stop", record, prop)
            await self.inbound.blocked(record)
            return TelegramResult(outcome=InboundOutcome.SENDER_OPTED_OUT)
        if (plain := opt_out_request(record.body)) is not None:  # "stop messaging me": as /stop, confirmed
            text = await opt_out_by_request(self.spine, Channel.TELEGRAM, record.from_address, plain,
                                            message_id=record.id, property_id=prop.id, property_name=prop.name)
            await self.inbound.answered(record, text, lambda body: self._send(record, message, body, confirms=True))
            return TelegramResult(outcome=InboundOutcome.OPTED_OUT, reply=text)
        if record.body and (told := await followup_reply(self.spine, Channel.TELEGRAM, record.from_address,
                                                          record.body)) is not None:
            return await self._answer(record, message, told.reply, InboundOutcome.ANSWERED, None)
        if not record.body:
            text = "I can read text messages only; please type your question."
            if message.attachments():
                text = f"I can't open attachments here ({message.attachments()} received); please type your question."
            return await self._answer(record, message, text, InboundOutcome.ANSWERED, None)
        return await self._turn(record, message, prop)

    async def _start(self, record: InboundMessage, message: Message, prop: Property) -> TelegramResult:
        await set_consent(self.spine, Channel.TELEGRAM, record.from_address, opted_out=False, keyword="/start",
                          property_id=prop.id, detail={"message_id": record.id})
        linked = await linked_person(self.spine, record.from_address)
        text = f"Hi, I'm Clara, the AI assistant at {prop.name}. Ask me anything, or send /stop to stop messages."
        if not linked:
            text += " Residents and vendors: share your phone number so I know who you are."
        result = await self._answer(record, message, text, InboundOutcome.OPTED_IN,
                                    None if linked else share_contact_keyboard().model_dump(exclude_none=True))
        result.person_id = linked
        return result

    async def _link(self, record: InboundMessage, message: Message, contact: Contact, prop: Property) -> TelegramResult:
        """A shared contact links the user only when it is their own (Telegram fills user_id
        with the contact's account; a contact forwarded from someone else has another id)."""
        offer = share_contact_keyboard().model_dump(exclude_none=True)
        if message.from_ is None or contact.user_id != message.from_.id:
            await self._event(EventKind.TELEGRAM_LINK_REFUSED, "not_own_contact", record, prop)
            text = "That contact isn't yours, so I can't link it. Use the button to share your own number."
            return await self._answer(record, message, text, InboundOutcome.NOT_LINKED, offer)
        try:
            e164 = own_phone(contact)
        except InvalidPhoneNumber:
            await self._event(EventKind.TELEGRAM_LINK_REFUSED, "unreadable_phone", record, prop)
            return await self._answer(record, message, "I couldn't read that phone number.",
                                           InboundOutcome.NOT_LINKED, offer)
        link = await link_telegram_user(self.spine, record.from_address, e164)
        if link.person_id is None:
            await self._event(EventKind.TELEGRAM_LINK_REFUSED, link.reason, record, prop)
            text = (f"I couldn't find that number in {prop.name}'s records. You can still ask me anything, "
                    "or text us from the number on your lease.")
            return await self._answer(record, message, text, InboundOutcome.NOT_LINKED, None)
        await self._event(EventKind.TELEGRAM_LINKED, "own_contact", record, prop, person_id=link.person_id)
        first = (link.display_name or "").split(" ")[0] or "there"
        text = f"Thanks, {first}: this chat is now linked to your account at {prop.name}. How can I help?"
        result = await self._answer(record, message, text, InboundOutcome.LINKED,
                                         ReplyKeyboardRemove().model_dump())
        result.person_id = link.person_id
        return result

    async def _answer(self, record: InboundMessage, message: Message, text: str, outcome: InboundOutcome,
                      markup: dict | None) -> TelegramResult:
        """Answer without a turn (contacts, commands, messages with no text)."""
        await self.inbound.answered(record, text, lambda body: self._send(record, message, body, markup))
        return TelegramResult(outcome=outcome, reply=text)

    async def _turn(self, record: InboundMessage, message: Message, prop: Property) -> TelegramResult:
        linked = await linked_person(self.spine, record.from_address)
        participant = linked or await resolve_participant(self.spine, Channel.TELEGRAM, record.from_address)
        assert record.interaction_id is not None  # every accepted inbound starts an interaction
        envelope = MessageEnvelope(
            message_id=record.id, interaction_id=record.interaction_id, channel=Channel.TELEGRAM,
            from_address=record.from_address, to_address=record.to_address, body=record.body, property_id=prop.id,
            participant_id=participant, received_at=record.received_at)
        offer = None if linked else share_contact_keyboard().model_dump(exclude_none=True)

        async def on_end(result: TurnResult | None, error: BaseException | None) -> None:
            await self._turn_ended(record, message, result, error, offer)

        if not await self.turns.run(envelope, on_end):
            await self._event(EventKind.REPLY_DEFERRED, "turn_exceeded_inline_budget", record, prop)
            return TelegramResult(outcome=InboundOutcome.DEFERRED, interaction_id=record.interaction_id)
        return TelegramResult(outcome=turn_outcome(record), interaction_id=record.interaction_id, person_id=participant,
                              reply=record.reply)

    async def _turn_ended(self, record: InboundMessage, message: Message, result: TurnResult | None,
                          error: BaseException | None, offer: dict | None) -> None:
        await self.inbound.turn_ended(record, result, error, send=lambda text: self._send(record, message, text, offer))

    async def _send(self, record: InboundMessage, message: Message, text: str, markup: dict | None = None,
                    confirms: bool = False) -> None:
        await self.delivery.send(key=keys.reply_delivery(record.id), to=str(message.chat.id), from_=record.to_address,
                                 body=text, reply_markup=markup, confirms_opt_out=confirms)

    async def _event(self, kind: EventKind, reason: str, record: InboundMessage, prop: Property | None, **detail) -> None:
        await self.inbound.emit(kind, reason, record.from_address, prop.id if prop else None, None,
                                {"message_id": record.id, **detail})
