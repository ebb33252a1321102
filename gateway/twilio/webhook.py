"""A Twilio webhook's signed form, checked the one way every Twilio route checks it (SMS
inbound and status callbacks, the voice webhook): the body read within a limit, the
`X-Twilio-Signature` verified by the twilio library over the public URL Twilio called
(gateway.twilio.signature, which also bounds the header), and the form refused unless Twilio could
have sent it for that webhook (gateway.twilio.params: no re-cut form passes)."""
from __future__ import annotations

import logging

from fastapi import Request
from starlette.datastructures import ImmutableMultiDict

from gateway.errors import WebhookRejected
from gateway.settings import Settings
from gateway.sms.inbound import MAX_FORM_BYTES, MalformedWebhook, decode_form
from gateway.twilio.params import RecutWebhook, TwilioWebhook, check_form
from gateway.twilio.signature import SETTINGS_HEADER, SIGNATURE_HEADER, public_url, signature_valid
from gateway.untrusted import whole_number

log = logging.getLogger("clara.twilio")


async def read_limited(request: Request, limit: int = MAX_FORM_BYTES) -> bytes:
    """The body, refusing (413) anything over `limit` without buffering it all."""
    declared = whole_number(request.headers.get("content-length"))
    if declared is not None and declared > limit:
        raise WebhookRejected(413, f"body of {declared} bytes is over the {limit}-byte limit")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise WebhookRejected(413, f"body is over the {limit}-byte limit")
    return bytes(body)


async def signed_form(request: Request, settings: Settings, webhook: TwilioWebhook, *,
                      check_names: bool = True) -> ImmutableMultiDict:
    """The form of a request Twilio signed for this public URL and could have sent as `webhook`,
    or WebhookRejected (400 unreadable or another channel's parameter, 403 unsigned or re-cut, 413
    too large).
    `check_names=False` only where the parameters are not all documented and the request grants
    nothing (the voice <Connect> action callback); SIDs, duplicates and AccountSid are still checked."""
    try:
        form = decode_form(await read_limited(request))
    except MalformedWebhook as exc:
        raise WebhookRejected(400, str(exc)) from exc
    if not settings.twilio_auth_token:
        raise WebhookRejected(403, "TWILIO_AUTH_TOKEN is not set, so no Twilio signature can be verified")
    url = public_url(settings.public_url, request.url.path, request.url.query)
    if not signature_valid(settings.twilio_auth_token, url, form, request.headers.get(SIGNATURE_HEADER),
                           request.headers.get(SETTINGS_HEADER)):
        raise WebhookRejected(403, f"{SIGNATURE_HEADER} is missing or does not match {url}")
    try:
        check_form(form, webhook, account_sid=settings.twilio_account_sid, check_names=check_names)
    except RecutWebhook as exc:
        log.warning("twilio %s webhook refused, parameter %s: %s", webhook, exc.parameter, exc.reason)
        raise WebhookRejected(exc.status, f"not a form Twilio sends: {exc}") from exc
    return form
