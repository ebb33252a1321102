"""Twilio's voice webhook arrives signed like its SMS webhook: the same helpers check it."""
from __future__ import annotations

from fastapi import Request
from starlette.datastructures import ImmutableMultiDict

from gateway.settings import Settings
from gateway.sms.inbound import MalformedWebhook, decode_form
from gateway.sms.routes import WebhookRejected, read_limited
from gateway.sms.signature import SETTINGS_HEADER, SIGNATURE_HEADER, public_url, signature_valid

TwilioRejected = WebhookRejected


async def signed_form(request: Request, settings: Settings) -> ImmutableMultiDict:
    """The form of a request Twilio signed for this public URL, or TwilioRejected (400/403/413)."""
    try:
        form = decode_form(await read_limited(request))
    except MalformedWebhook as exc:
        raise TwilioRejected(400, str(exc)) from exc
    if not settings.twilio_auth_token:
        raise TwilioRejected(403, "TWILIO_AUTH_TOKEN is not set, so no Twilio signature can be verified")
    url = public_url(settings.public_url, request.url.path, request.url.query)
    if not signature_valid(settings.twilio_auth_token, url, form, request.headers.get(SIGNATURE_HEADER),
                           request.headers.get(SETTINGS_HEADER)):
        raise TwilioRejected(403, f"{SIGNATURE_HEADER} is missing or does not match {url}")
    return form
