"""One inbound SMS, from a verified Twilio form to the messages to answer with.

Accept the message durably first (create-if-absent on MessageSid, so a redelivery never runs a
second turn), handle Twilio's reserved keywords without a turn, then run the turn on the actor
pool within an inline budget safely below Twilio's 15 s webhook timeout. A turn that misses the
budget is acknowledged now and answered later through the REST API (or held in the outbox).
The record ends answered, blocked or failed (gateway.inbound_log); nothing is sent, inline or
later, that `Delivery.may_send` does not allow at that moment; a failure gets an apology.
"""
from __future__ import annotations

import asyncio
import logging
import time

from pydantic import BaseModel, Field

import spine.keys as keys
from actors.client.placement import Placer
from actors.protocol.turn import TurnResult
from desk.followups.answers import followup_reply
from desk.outbound.consent import opt_in_confirmation, opt_out_by_request, set_consent
from gateway.api_turns import ApiTurns
from gateway.channel_inbound import APOLOGY, ChannelInbound, InboundOutcome, Send, TurnSubmitter, new_interaction_id
from gateway.sms.ack import page_ack
from gateway.sms.delivery import Delivery
from gateway.sms.dispatch_reply import dispatch_reply
from gateway.sms.inbound import InboundSms
from gateway.sms.keyword_trace import KeywordAnswer, write_keyword_trace
from gateway.sms.keywords import Keyword, classify_keyword, help_text
from gateway.sms.options import SmsOptions
from gateway.sms.splitting import split_body
from spine.context import Channel
from spine.envelope import MessageEnvelope
from spine.intent.optout import opt_out_request
from spine.property import Property
from spine.records import EventKind, InboundMessage, InboundStatus, last4
from spine.repo import Spine

log = logging.getLogger("clara.sms")


class SmsReply(BaseModel):
    messages: list[str] = Field(default_factory=list)
    outcome: InboundOutcome
    interaction_id: str | None = None


class SmsHandler:
    def __init__(self, spine: Spine, turns: TurnSubmitter, delivery: Delivery,
                 options: SmsOptions | None = None, placer: Placer | None = None) -> None:
        self.spine = spine
        self.turns = turns
        self.placer = placer or Placer(spine)
        self.delivery = delivery
        self.inbound = ChannelInbound(spine, Channel.SMS, id_detail="message_sid")
        self.log = self.inbound.records  # the inbound log's one writer
        self.options = options or SmsOptions()
        # The turn runner email and Telegram use: inline within the budget, else in the background.
        self.runner = ApiTurns(turns, inline_budget_s=self.options.inline_budget_s)

    async def handle(self, sms: InboundSms) -> SmsReply:
        # The interaction id is reserved at acceptance, so a message whose replica died mid-turn
        # can be told apart (by its trace) from one whose turn never ended (gateway.sms.abandoned).
        record = InboundMessage(id=sms.message_sid, channel=Channel.SMS, from_address=sms.from_address,
                                to_address=sms.to_address, body=sms.body, media_urls=sms.media_urls,
                                interaction_id=new_interaction_id())
        try:
            fresh = await self.log.accept(record)
        except Exception as exc:  # noqa: BLE001 - the store is down: nothing was accepted, still answer
            await self._event(EventKind.STORE_DEGRADED, "inbound_not_recorded", sms, None, {"error": repr(exc)})
            return SmsReply(messages=[APOLOGY], outcome=InboundOutcome.FAILED)
        if not fresh:
            try:
                return await self._redelivery(sms)
            except Exception:  # the first delivery may have answered: acknowledge, never 500
                log.exception("sms %s: redelivery state unreadable", sms.message_sid)
                return SmsReply(outcome=InboundOutcome.DUPLICATE)
        try:
            return await self._process(record, sms)
        except Exception as exc:  # never a 500 at Twilio: record the failure, apologise
            log.exception("sms %s failed", sms.message_sid)
            await self.inbound.fail(record, exc)
            return SmsReply(messages=await self._apology(sms.from_address), outcome=InboundOutcome.FAILED,
                            interaction_id=record.interaction_id)

    async def drain(self, timeout_s: float = 30.0) -> None:
        """Wait for replies still being produced in the background (shutdown, tests)."""
        await self.runner.drain(timeout_s)
        await self.inbound.behind.drain(timeout_s)

    # -- the steps ---------------------------------------------------------------------
    async def _process(self, record: InboundMessage, sms: InboundSms) -> SmsReply:
        keyword = classify_keyword(sms.body)
        if keyword is Keyword.OPT_OUT:
            return await self._opt(record, sms, opted_out=True)
        prop = await self.spine.property_for_number(sms.to_address)
        opted_out = not await self.delivery.may_send(sms.from_address)
        if (ack := await page_ack(self.spine, sms.from_address, sms.body)) is not None:  # even opted out
            return await self._keyword(record, ack, "" if opted_out else ack.reply, prop, InboundOutcome.ACKNOWLEDGED)
        if keyword is Keyword.OPT_IN and opted_out:  # from anyone else "Yes" answers Clara's question
            return await self._opt(record, sms, opted_out=False, prop=prop)
        if opted_out:
            await self._event(EventKind.OPTED_OUT_INBOUND, "sender_opted_out", sms, prop,
                              {"hint": "the sender must text START before Clara may answer"})
            return await self._without_turn(record, None, InboundOutcome.SENDER_OPTED_OUT)
        if (plain := opt_out_request(sms.body)) is not None:  # "stop texting me": as STOP, confirmed by Clara
            confirm = await opt_out_by_request(self.spine, Channel.SMS, sms.from_address, plain,
                                               message_id=sms.message_sid, property_id=prop.id if prop else None,
                                               property_name=prop.name if prop else None)
            return await self._without_turn(record, confirm, InboundOutcome.OPTED_OUT)
        if prop is not None and (told := await followup_reply(self.spine, Channel.SMS, sms.from_address,
                                                               sms.body)) is not None:  # "5 thanks", "still leaking"
            said = KeywordAnswer(person_id=told.person_id, property_id=told.property_id, reply=told.reply,
                                 notifications=told.notifications)
            return await self._keyword(record, said, said.reply, prop, InboundOutcome.FOLLOWUP_ANSWERED)
        if (answer := await dispatch_reply(self.spine, sms.from_address, sms.body)) is not None:
            return await self._keyword(record, answer, answer.reply, prop, InboundOutcome.DISPATCH_ANSWERED)
        if keyword is Keyword.HELP:
            return await self._without_turn(record, help_text(prop.name if prop else None), InboundOutcome.HELP)
        if prop is None:
            await self._event(EventKind.UNKNOWN_NUMBER, "no_property_for_number", sms, None,
                              {"to_last4": last4(sms.to_address)})
            return await self._without_turn(record, None, InboundOutcome.UNKNOWN_NUMBER)
        return await self._turn(record, sms, prop)

    async def _opt(self, record: InboundMessage, sms: InboundSms, *, opted_out: bool,
                   prop: Property | None = None) -> SmsReply:
        await set_consent(self.spine, Channel.SMS, sms.from_address, opted_out=opted_out, keyword=sms.body.strip().upper(),
                          property_id=prop.id if prop else None, detail={"message_sid": sms.message_sid})
        if opted_out:  # Twilio itself confirms a STOP; Clara sends nothing more
            return await self._without_turn(record, None, InboundOutcome.OPTED_OUT)
        confirm = opt_in_confirmation(Channel.SMS, prop.name if prop else None)
        return await self._without_turn(record, confirm, InboundOutcome.OPTED_IN)

    async def _turn(self, record: InboundMessage, sms: InboundSms, prop: Property) -> SmsReply:
        # Placed by the Person the address resolves to (actors.client.placement), as every channel does.
        assert record.interaction_id is not None  # every accepted inbound starts an interaction
        envelope = await self.placer.placed(MessageEnvelope(
            message_id=sms.message_sid, interaction_id=record.interaction_id, channel=Channel.SMS,
            from_address=sms.from_address, to_address=sms.to_address, body=sms.body, property_id=prop.id,
            media_urls=sms.media_urls, received_at=record.received_at))
        end = _SmsTurnEnd(self, record, sms, prop)
        try:
            inline = await self.runner.run(envelope, end.on_end)
        except asyncio.CancelledError:  # the webhook caller hung up: the reply still goes out
            end.late_reason = "webhook_request_cancelled"
            raise
        if not inline:  # set before the background end can run: it reads it
            end.late_reason = "turn_exceeded_inline_budget"
            return SmsReply(outcome=InboundOutcome.DEFERRED, interaction_id=envelope.interaction_id)
        assert end.reply is not None  # the inline end ran
        return end.reply

    async def _redelivery(self, sms: InboundSms) -> SmsReply:
        """Twilio sent this MessageSid again: answer as the first delivery did, never run a
        second turn, and send only what may be sent now. If the first is still running, wait
        briefly for it, else acknowledge."""
        deadline = time.monotonic() + self.options.redelivery_wait_s
        first = await self.log.get(sms.message_sid)
        while first is not None and first.status == InboundStatus.ACCEPTED and time.monotonic() < deadline:
            await asyncio.sleep(self.options.poll_s)
            first = await self.log.get(sms.message_sid)
        if first is None or first.status in (InboundStatus.ACCEPTED, InboundStatus.BLOCKED, InboundStatus.HELD):
            return SmsReply(outcome=InboundOutcome.DUPLICATE, interaction_id=first.interaction_id if first else None)
        if first.status == InboundStatus.FAILED:
            return SmsReply(messages=await self._apology(sms.from_address), outcome=InboundOutcome.DUPLICATE,
                            interaction_id=first.interaction_id)
        if await self.spine.is_marked(keys.sms_deferred_marker(sms.message_sid)):
            return SmsReply(outcome=InboundOutcome.DUPLICATE, interaction_id=first.interaction_id)  # went by REST
        if not await self.delivery.may_send(sms.from_address):  # a STOP since the first answer
            return SmsReply(outcome=InboundOutcome.DUPLICATE, interaction_id=first.interaction_id)
        return SmsReply(messages=split_body(first.reply or ""), outcome=InboundOutcome.DUPLICATE,
                        interaction_id=first.interaction_id)

    # -- records and events --------------------------------------------------------------
    async def _without_turn(self, record: InboundMessage, reply: str | None, outcome: InboundOutcome) -> SmsReply:
        """An inbound answered (or not) without a turn: keywords, opted-out senders, unknown numbers."""
        record.interaction_id = None  # no interaction ran
        if reply:
            await self.log.answered(record, reply)
        else:
            await self.log.blocked(record)
        return SmsReply(messages=split_body(reply or ""), outcome=outcome)

    async def _keyword(self, record: InboundMessage, answer: KeywordAnswer, reply: str, prop: Property | None,
                       outcome: InboundOutcome) -> SmsReply:
        """An ACK or YES/NO that did something: answered without a turn, but traced as a turn is."""
        await write_keyword_trace(self.spine, record, answer, sent=reply, property_id=prop.id if prop else None)
        if reply:
            await self.log.answered(record, reply)
        else:
            await self.log.blocked(record)
        return SmsReply(messages=split_body(reply), outcome=outcome, interaction_id=record.interaction_id)

    async def _apology(self, to: str) -> list[str]:
        try:
            return [APOLOGY] if await self.delivery.may_send(to) else []
        except Exception:  # noqa: BLE001 - the store is failing too: an apology beats silence
            return [APOLOGY]

    async def _event(self, kind: EventKind, reason: str, sms: InboundSms, prop: Property | None, detail: dict,
                     interaction_id: str | None = None) -> None:
        await self.inbound.emit(kind, reason, sms.from_address, prop.id if prop else None, interaction_id,
                                {"message_sid": sms.message_sid, **detail})


class _SmsTurnEnd:
    """How one SMS turn ends, through the end-of-turn record every channel uses
    (`ChannelInbound.turn_ended`, with the send check after the turn). Inline the reply goes
    back as TwiML; after the budget (`late_reason` set) it leaves by REST or the outbox."""

    def __init__(self, handler: SmsHandler, record: InboundMessage, sms: InboundSms, prop: Property) -> None:
        self.handler, self.record, self.sms, self.prop = handler, record, sms, prop
        self.late_reason: str | None = None
        self.reply: SmsReply | None = None

    async def on_end(self, result: TurnResult | None, error: BaseException | None) -> None:
        if self.late_reason is None:
            self.reply = await self._inline(result, error)
        else:
            await self._late(result, error, self.late_reason)

    async def _inline(self, result: TurnResult | None, error: BaseException | None) -> SmsReply:
        text = await self._ended(result, error)
        interaction_id = self.record.interaction_id
        if self.record.status == InboundStatus.FAILED:
            return SmsReply(messages=await self.handler._apology(self.sms.from_address), outcome=InboundOutcome.FAILED,
                            interaction_id=interaction_id)
        if self.record.status == InboundStatus.HELD:
            return SmsReply(outcome=InboundOutcome.HELD, interaction_id=interaction_id)
        if self.record.status == InboundStatus.BLOCKED:
            outcome = InboundOutcome.SPAM if result is not None and result.suppressed else InboundOutcome.SENDER_OPTED_OUT
            return SmsReply(outcome=outcome, interaction_id=interaction_id)
        return SmsReply(messages=split_body(text or ""), outcome=InboundOutcome.ANSWERED, interaction_id=interaction_id)

    async def _late(self, result: TurnResult | None, error: BaseException | None, reason: str) -> None:
        """The turn missed the inline budget: mark it deferred (a redelivery then replays
        nothing) and send its reply, or the apology, by REST."""
        sms, handler = self.sms, self.handler
        try:
            await handler.spine.mark_once(keys.sms_deferred_marker(sms.message_sid))
            await handler._event(EventKind.REPLY_DEFERRED, reason, sms, self.prop,
                                 {"inline_budget_s": handler.options.inline_budget_s}, self.record.interaction_id)
        except Exception as exc:  # noqa: BLE001 - recorded as the turn's failure; the apology goes out
            result, error = None, exc
        await self._ended(result, error, send=lambda text: handler.delivery.send(
            key=sms.message_sid, to=sms.from_address, from_=sms.to_address, body=text))

    async def _ended(self, result: TurnResult | None, error: BaseException | None,
                     send: Send | None = None) -> str | None:
        if error is None and result is not None and result.suppressed:
            # A takeover's held message is not spam (issue 40 item 12): its own event and outcome.
            kind, reason = (EventKind.REPLY_HELD, "takeover") if result.held else (EventKind.SPAM_DROPPED, "reply_suppressed")
            await self.handler._event(kind, reason, self.sms, self.prop, {"person_id": result.person_id},
                                      result.interaction_id)
        return await self.handler.inbound.turn_ended(
            self.record, result, error, send=send,
            may_send=lambda: self.handler.delivery.may_send(self.sms.from_address))
