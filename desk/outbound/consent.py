"""Consent kept on every channel, in one home: whichever way a person asks (a channel's keyword,
STOP / START by SMS, "unsubscribe" / "subscribe" by email, /stop / /start on Telegram, a one-click
link, or a plain request to stop), the channel calls here with the address and its channel, and
this records the opt-out (or back in) on that channel, emits its event and words the confirmation.
The channels keep only their transport: how a keyword is recognised, Twilio's own STOP reply,
Telegram's greeting, whom an email's keyword may be believed from.

A plain request: the channels each ask `spine.intent.optout.opt_out_request` before any turn and,
when it answers, call `opt_out_by_request`: the same per-channel opt-out record as the keyword,
and one confirmation in the language of the message it answers.

Why Clara sends the confirmation herself: Twilio confirms only its own keywords, so "stop texting
me" would otherwise get silence (or, before this, a greeting). The SMS text is Twilio's STOP
confirmation word for word, so a person gets the same answer whichever way they asked.
"""
from __future__ import annotations

import logging
from typing import Any

from spine.context import Channel
from spine.events import emit_event
from spine.intent.optout import Language, OptOutRequest
from spine.records import EventKind, OptOut
from spine.repo import Spine

log = logging.getLogger(__name__)

_CONFIRM: dict[tuple[Channel, Language], str] = {
    (Channel.SMS, "en"): ("You have successfully been unsubscribed. You will not receive any more messages "
                          "from this number. Reply START to resubscribe."),
    (Channel.SMS, "es"): ("Se ha dado de baja correctamente. No recibirá más mensajes de este número. "
                          "Responda START para volver a suscribirse."),
    (Channel.EMAIL, "en"): ("You have been unsubscribed: {name} will not email you again. "
                            "Reply \"subscribe\" to receive email again."),
    (Channel.EMAIL, "es"): ("Se ha dado de baja: {name} no le enviará más correos. "
                            "Responda \"subscribe\" para volver a recibirlos."),
    (Channel.TELEGRAM, "en"): "You have been unsubscribed: {name} will not message you here again. Send /start to resubscribe.",
    (Channel.TELEGRAM, "es"): "Se ha dado de baja: {name} no le escribirá más aquí. Envíe /start para volver a suscribirse.",
}


_OPTED_IN: dict[Channel, str] = {
    Channel.SMS: "You're opted back in to messages{where}. Reply HELP for help, STOP to opt out.",
    Channel.EMAIL: "You're subscribed again to email from {name}. Reply \"unsubscribe\" to stop.",
}


def consent_event(channel: Channel, opted_out: bool) -> EventKind:
    """The event of an opt-out (or back in) on `channel`: email has kinds of its own."""
    if channel == Channel.EMAIL:
        return EventKind.EMAIL_OPT_OUT if opted_out else EventKind.EMAIL_OPT_IN
    return EventKind.OPT_OUT if opted_out else EventKind.OPT_IN


async def set_consent(spine: Spine, channel: Channel, address: str, *, opted_out: bool, keyword: str,
                      property_id: str | None, detail: dict[str, Any], reason: str | None = None) -> None:
    """Record that `address` opted out of (or back in to) `channel`, asked by `keyword`, and its event
    (reason: the keyword's word, `stop`, `start`, `unsubscribe`, ..., unless given)."""
    await spine.set_opt_out(OptOut(address=address, opted_out=opted_out, keyword=keyword, channel=channel))
    try:
        await emit_event(spine, consent_event(channel, opted_out), reason or keyword.lower().lstrip("/"),
                         channel=channel, address=address, property_id=property_id, interaction_id=None,
                         detail=detail)
    except Exception:
        log.exception("the %s event of %s could not be emitted", keyword, channel)


def opt_in_confirmation(channel: Channel, property_name: str | None) -> str:
    """What a keyword's opt-in answers on SMS and email (Telegram's /start greets instead)."""
    where = f" from {property_name}" if property_name else ""
    return _OPTED_IN[channel].format(where=where, name=property_name or "us")


def confirmation(channel: Channel, language: Language, property_name: str | None) -> str:
    """The one confirmation of an opt-out on `channel`, in `language`."""
    template = _CONFIRM.get((channel, language)) or _CONFIRM[(Channel.SMS, language)]
    return template.format(name=property_name or "we")


async def opt_out_by_request(spine: Spine, channel: Channel, address: str, found: OptOutRequest, *,
                             message_id: str, property_id: str | None, property_name: str | None) -> str:
    """Record the opt-out on this channel (as its keyword does) and its event; the confirmation."""
    await set_consent(spine, channel, address, opted_out=True, keyword=found.phrase, property_id=property_id,
                      reason="plain_request",
                      detail={"message_id": message_id, "phrase": found.phrase, "language": found.language})
    return confirmation(channel, found.language, property_name)
