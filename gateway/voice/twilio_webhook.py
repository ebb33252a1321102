"""Twilio's voice webhook arrives signed like its SMS webhook: the same helpers check it, with
the voice call's parameter set and CallSid shape (gateway.sms.twilio_params)."""
from __future__ import annotations

from fastapi import Request
from starlette.datastructures import ImmutableMultiDict

from gateway.settings import Settings
from gateway.sms.routes import WebhookRejected, verified_form
from gateway.sms.twilio_params import TwilioWebhook

TwilioRejected = WebhookRejected


async def signed_form(request: Request, settings: Settings, *, check_names: bool = True) -> ImmutableMultiDict:
    """The form of a voice webhook Twilio signed for this public URL, or TwilioRejected
    (400/403/413). `check_names=False` for the <Connect> action callback, which only asks whether
    to apologize: its parameters are not all listed, and it grants nothing."""
    return await verified_form(request, settings, TwilioWebhook.VOICE, check_names=check_names)
