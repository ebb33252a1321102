"""Consent kept on every channel: a plain request to stop opts out as the channel's keyword does.

The channels (SMS, email, Telegram) each ask `spine.intent.optout.opt_out_request` before any turn
and, when it answers, call `opt_out_by_request` here: the same per-channel opt-out record as STOP,
`unsubscribe` or `/stop`, and one confirmation in the language of the message it answers.

Why Clara sends the confirmation herself: Twilio confirms only its own keywords, so "stop texting
me" would otherwise get silence (or, before this, a greeting). The SMS text is Twilio's STOP
confirmation word for word, so a person gets the same answer whichever way they asked.
"""
from __future__ import annotations

from spine.context import Channel
from spine.events import emit_event
from spine.intent.optout import Language, OptOutRequest
from spine.records import EventKind, OptOut
from spine.repo import Spine

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


def confirmation(channel: Channel, language: Language, property_name: str | None) -> str:
    """The one confirmation of an opt-out on `channel`, in `language`."""
    template = _CONFIRM.get((channel, language)) or _CONFIRM[(Channel.SMS, language)]
    return template.format(name=property_name or "we")


async def opt_out_by_request(spine: Spine, channel: Channel, address: str, found: OptOutRequest, *,
                             message_id: str, property_id: str | None, property_name: str | None) -> str:
    """Record the opt-out on this channel (as its keyword does) and its event; the confirmation."""
    await spine.set_opt_out(OptOut(address=address, opted_out=True, keyword=found.phrase, channel=channel))
    kind = EventKind.EMAIL_OPT_OUT if channel == Channel.EMAIL else EventKind.OPT_OUT
    await emit_event(spine, kind, "plain_request", channel=channel, address=address, property_id=property_id,
                     interaction_id=None,
                     detail={"message_id": message_id, "phrase": found.phrase, "language": found.language})
    return confirmation(channel, found.language, property_name)
