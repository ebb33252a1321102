"""How a scenario's turn reaches the gateway: through the channel adapter a real message takes.

`sms` (the default) is an inbound Twilio SMS handed to the SmsHandler; `email` is an inbound
Mailgun message handed to the EmailHandler, its sender authenticated as Mailgun reports it (an
`Authentication-Results` header with SPF and DKIM passing for the From domain); `telegram` is a
Bot API update to the property's bot, from a Telegram user who first shares their own contact
(the phone on file), as the bot asks. Each submits to the scenario's PersonHost, as a Serve
replica does. A sender is an address of the channel (an E.164 number, an email address) or a
demo Person id, who sends from the address on file.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass

from actors.host.host import PersonHost
from actors.model.base import ModelBackend
from gateway.api_turns import ApiTurns
from gateway.channel_inbound import ChannelInbound
from gateway.email.delivery import EmailDelivery
from gateway.email.handler import EmailHandler
from gateway.email.inbound import InboundEmail
from gateway.evals.scenario import EvalChannel
from gateway.evals.voice import VoiceLine
from gateway.sms.delivery import Delivery
from gateway.sms.handler import SmsHandler
from gateway.sms.inbound import InboundSms
from gateway.telegram.delivery import TelegramDelivery
from gateway.telegram.handler import TelegramHandler
from gateway.telegram.updates import contact_update, text_update
from gateway.telegram.wire import Update
from spine.context import Channel
from spine.identity import ClaimKind
from spine.repo import Spine

INLINE_BUDGET_S = 120.0  # an eval waits for its turn: a reply deferred to the background is not scored


@dataclass(frozen=True)
class Exchange:
    reply: str
    interaction_id: str | None


class Lines:
    """The channel adapters of one scenario, over its store and PersonHost."""

    def __init__(self, spine: Spine, host: PersonHost, model: ModelBackend | None = None) -> None:
        self.spine, self.model = spine, model
        self._voice: VoiceLine | None = None  # the scenario's phone calls, opened on the first
        self.sms = SmsHandler(spine, host, Delivery(spine, rest=None))
        self.email_turns = ApiTurns(host, inline_budget_s=INLINE_BUDGET_S)
        self.email = EmailHandler(ChannelInbound(spine, Channel.EMAIL), self.email_turns, EmailDelivery(spine, None))
        self.telegram_turns = ApiTurns(host, inline_budget_s=INLINE_BUDGET_S)
        self.telegram = TelegramHandler(ChannelInbound(spine, Channel.TELEGRAM), self.telegram_turns,
                                        TelegramDelivery(spine, None))
        self._linked: set[int] = set()  # Telegram users who shared their contact in this scenario
        self._ids = itertools.count(1)

    async def send(self, channel: EvalChannel, sender: str, line: str, say: str) -> Exchange:
        """`line` is the property's number; an email goes to that property's address."""
        address = await self.address(channel, sender)
        if channel == "voice":
            reply, interaction_id = await self.voice.say(address, line, say)
            return Exchange(reply=reply, interaction_id=interaction_id)
        if channel == "email":
            return await self._email(address, line, say)
        if channel == "telegram":
            return await self._telegram(address, line, say)
        answer = await self.sms.handle(InboundSms(message_sid=f"SMeval{next(self._ids):026d}", from_address=address,
                                                  to_address=line, body=say))
        return Exchange(reply="\n".join(answer.messages), interaction_id=answer.interaction_id)

    async def _email(self, address: str, line: str, say: str) -> Exchange:
        prop = await self.spine.property_for_number(line)
        if prop is None or not prop.email:
            raise ValueError(f"no property with an email address answers {line}")
        domain = address.rsplit("@", 1)[-1]
        passed = f"mx.clara.example; spf=pass smtp.mailfrom={domain}; dkim=pass header.d={domain}"
        mail = InboundEmail(message_id=f"eval-{next(self._ids)}@clara.example", from_address=address,
                            recipients=[prop.email], subject="Message for Clara", text=say,
                            headers=[("Authentication-Results", passed),  # the receiver's, above its Received
                                     ("Received", f"from mail.{domain} by mx.clara.example with ESMTP")])
        result = await self.email.handle(mail, prop)
        return Exchange(reply=result.reply or "", interaction_id=result.interaction_id)

    async def _telegram(self, phone: str, line: str, say: str) -> Exchange:
        prop = await self.spine.property_for_number(line)
        if prop is None or not prop.telegram_bot_id:
            raise ValueError(f"no property with a Telegram bot answers {line}")
        user_id = int(phone.lstrip("+"))  # one Telegram account per number, within a scenario
        if user_id not in self._linked:
            self._linked.add(user_id)
            await self.telegram.handle(Update.model_validate(contact_update(user_id=user_id, phone=phone)), prop)
        result = await self.telegram.handle(Update.model_validate(text_update(user_id=user_id, text=say)), prop)
        return Exchange(reply=result.reply or "", interaction_id=result.interaction_id)

    async def address(self, channel: EvalChannel, sender: str) -> str:
        if (channel != "email" and sender.startswith("+")) or (channel == "email" and "@" in sender):
            return sender
        kind = ClaimKind.EMAIL if channel == "email" else ClaimKind.PHONE
        person = await self.spine.get_person(sender)
        found = [c.value for c in person.claims if c.kind == kind] if person else []
        if not found:
            raise ValueError(f"sender {sender!r} is neither an {channel} address nor a demo person with one")
        return found[0]

    @property
    def voice(self) -> VoiceLine:
        if self._voice is None:
            if self.model is None:
                raise ValueError("a voice turn needs the scenario's model")
            self._voice = VoiceLine(self.spine, self.model)
        return self._voice

    async def drain(self) -> None:
        if self._voice is not None:
            await self._voice.aclose()
        await self.sms.drain(timeout_s=5.0)
        await self.email_turns.drain(timeout_s=5.0)
        await self.telegram_turns.drain(timeout_s=5.0)
