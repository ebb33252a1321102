"""The parameters Twilio documents for each webhook we take, and the checks that refuse a signed
form Twilio could never have sent.

Why: Twilio's signature is HMAC(URL + name1 + value1 + name2 + value2 ...) over the sorted
parameters, with no separator, so characters can move across a name/value boundary without
changing it. A captured request can be re-cut into another one under the same signature: the tail
of `MessageSid` moved into the next name gives a "new" message; the end of `Body` moved into a
junk parameter `D` (sorted right after `Body`) changes what the tenant said. Refusing every SID
that is not its exact shape, every duplicated name and every name outside Twilio's documented set
leaves no boundary to move. The cost: when Twilio adds a parameter (its docs warn that it may),
requests carrying it are refused (403, logged with the name) until the name is added here.

Sources (the lists below are copied from these pages, by hand):
- Inbound message webhook: https://www.twilio.com/docs/messaging/guides/webhook-request (its
  request parameters for every channel, then the WhatsApp-specific ones: WHATSAPP_ONLY)
- Message status callback: https://www.twilio.com/docs/messaging/guides/track-outbound-message-status
  and https://www.twilio.com/docs/messaging/api/message-resource (StatusCallback parameters)
- Fallback request: https://www.twilio.com/docs/usage/security/availability-reliability (when the
  primary URL fails, Twilio posts the same parameters at once to the number's fallback URL, adding
  ErrorCode and ErrorUrl: FALLBACK)
- Voice webhook: https://www.twilio.com/docs/voice/twiml#request-parameters, the <Gather> action's
  https://www.twilio.com/docs/voice/twiml/gather#action, and
  https://www.twilio.com/docs/voice/trusted-calling-with-shakenstir (StirVerstat, StirPassportToken)
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from enum import StrEnum

from starlette.datastructures import ImmutableMultiDict

from gateway.errors import MalformedInput

# Geographic fields Twilio adds "when available" for the From and To numbers.
_GEO = ("City", "State", "Zip", "Country")
_GEO_FIELDS = frozenset(f"{side}{part}" for side in ("From", "To") for part in _GEO)

# Names Twilio sends only for a WhatsApp message (its "WhatsApp-specific", location, reply and
# Click-to-WhatsApp referral parameters; ChannelMetadata, which SMS never carries). Accepted only when
# From is `whatsapp:...`: on an SMS from a phone number they are refused (400), since several sort
# between Body and From (ButtonPayload, ButtonText, ChannelMetadata, Forwarded, ...) and would let
# a captured SMS be re-cut at a boundary the SMS never had.
WHATSAPP_ONLY = frozenset({
    "ProfileName", "WaId", "Forwarded", "FrequentlyForwarded", "ButtonText", "ButtonPayload", "ButtonType",
    "Latitude", "Longitude", "Address", "Label", "OriginalRepliedMessageSender", "OriginalRepliedMessageSid",
    "ReferralBody", "ReferralHeadline", "ReferralSourceId", "ReferralSourceType", "ReferralSourceUrl",
    "ReferralMediaId", "ReferralMediaContentType", "ReferralMediaUrl", "ReferralNumMedia", "ReferralCtwaClid",
    "InteractiveData", "ChannelMetadata",
})
WHATSAPP_SENDER = "whatsapp:"

# What Twilio adds when it posts an inbound message or a call to the number's fallback URL because
# the primary failed (a GatewayIngress replica that died mid-request answers 500 through Serve's
# proxy). The fallback URL is the same route: a message is then a redelivery of its MessageSid, a
# call's TwiML is built again (it is the same for the same CallSid).
FALLBACK = frozenset({"ErrorCode", "ErrorUrl"})

INBOUND_MESSAGE = frozenset({
    "MessageSid", "SmsSid", "SmsMessageSid", "AccountSid", "MessagingServiceSid", "From", "To", "Body",
    "NumMedia", "NumSegments", "ApiVersion", "SmsStatus", "AddOns", "OptOutType", "MessageType",
}) | WHATSAPP_ONLY | FALLBACK | _GEO_FIELDS

STATUS_CALLBACK = frozenset({
    "MessageSid", "SmsSid", "MessageStatus", "SmsStatus", "AccountSid", "MessagingServiceSid", "From", "To",
    "ApiVersion", "ErrorCode", "ErrorMessage", "RawDlrDoneDate", "ChannelInstallSid", "ChannelPrefix",
    "ChannelToAddress", "ChannelStatusMessage", "EventType", "Body", "NumSegments", "NumMedia",
}) | _GEO_FIELDS

VOICE_CALL = frozenset({
    "CallSid", "AccountSid", "From", "To", "CallStatus", "ApiVersion", "Direction", "ForwardedFrom",
    "CallerName", "ParentCallSid", "CallToken", "StirVerstat", "StirPassportToken", "StirStatus", "AddOns",
    "Caller", "Called", "Digits", "SpeechResult", "Confidence", "FinishedOnKey",  # <Gather> action
    "AnsweredBy", "MachineDetectionDuration",  # a call placed with MachineDetection (the paging call)
    "DialCallStatus", "DialCallSid", "DialCallDuration", "DialBridged",  # <Dial> action (a transfer)
    *(f"{side}{part}" for side in ("Caller", "Called") for part in _GEO),
}) | FALLBACK | _GEO_FIELDS

# Indexed names: MediaUrl0..MediaUrl9 and MediaContentType0..9 on a message.
_INDEXED = {"inbound": re.compile(r"(MediaUrl|MediaContentType)\d"), "status": None, "voice": None}


# The fallback's fields have one exact shape, checked so that no name/value boundary around them can
# move (they sort between Body and From, and between Direction and From): a five-digit code, a URL.
_FALLBACK_SHAPES = {"ErrorCode": re.compile(r"\d{5}"), "ErrorUrl": re.compile(r"https?://[^\s]{1,2000}")}


class TwilioWebhook(StrEnum):
    INBOUND = "inbound"
    STATUS = "status"
    VOICE = "voice"


_NAMES = {TwilioWebhook.INBOUND: INBOUND_MESSAGE, TwilioWebhook.STATUS: STATUS_CALLBACK,
          TwilioWebhook.VOICE: VOICE_CALL}

# A SID is two letters and 32 hex digits. Which letters each field carries:
_SID = re.compile(r"[A-Z]{2}[0-9a-fA-F]{32}")
SID_PREFIXES: dict[str, tuple[str, ...]] = {
    "MessageSid": ("SM", "MM"), "SmsSid": ("SM", "MM"), "SmsMessageSid": ("SM", "MM"),
    "AccountSid": ("AC",), "MessagingServiceSid": ("MG",), "CallSid": ("CA",), "ParentCallSid": ("CA",),
}


class RecutWebhook(MalformedInput):
    """A signed form Twilio never sends; `parameter` names the offending field (logged, `status`)."""

    status = 403

    def __init__(self, parameter: str, reason: str) -> None:
        super().__init__(f"{parameter}: {reason}")
        self.parameter, self.reason = parameter, reason


class WrongChannelParameter(RecutWebhook):
    """A parameter of another channel (a WhatsApp one on an SMS from a phone number): 400."""

    status = 400


def sid_ok(value: str, prefixes: Iterable[str]) -> bool:
    return bool(_SID.fullmatch(value)) and value[:2] in tuple(prefixes)


def _known(webhook: TwilioWebhook, name: str) -> bool:
    indexed = _INDEXED[webhook.value]
    return name in _NAMES[webhook] or bool(indexed and indexed.fullmatch(name))


def check_form(form: ImmutableMultiDict, webhook: TwilioWebhook, *, account_sid: str | None,
               check_names: bool = True) -> None:
    """RecutWebhook unless the form is one Twilio could have sent for this webhook."""
    seen: set[str] = set()
    whatsapp = form.get("From", "").startswith(WHATSAPP_SENDER)
    for name, _ in form.multi_items():
        if name in seen:
            raise RecutWebhook(name, "appears more than once; Twilio sends each parameter once")
        seen.add(name)
        if check_names and not _known(webhook, name):
            raise RecutWebhook(name, f"is not a parameter Twilio documents for its {webhook} webhook")
        if check_names and webhook == TwilioWebhook.INBOUND and name in WHATSAPP_ONLY and not whatsapp:
            raise WrongChannelParameter(name, f"is a WhatsApp parameter; Twilio sends it only when From is "
                                        f"{WHATSAPP_SENDER}..., never on an SMS from a phone number")
    for name, prefixes in SID_PREFIXES.items():
        value = form.get(name)
        if value is not None and not sid_ok(value, prefixes):
            raise RecutWebhook(name, f"is not {' or '.join(prefixes)} followed by 32 hex digits")
    for name, shape in _FALLBACK_SHAPES.items() if webhook != TwilioWebhook.STATUS else ():
        value = form.get(name)
        if value is not None and not shape.fullmatch(value):
            raise RecutWebhook(name, f"is not the shape Twilio sends ({shape.pattern})")
    required = "CallSid" if webhook == TwilioWebhook.VOICE else None
    if required and required not in form:
        raise RecutWebhook(required, "is missing")
    if account_sid and form.get("AccountSid") != account_sid:
        raise RecutWebhook("AccountSid", "is not the configured TWILIO_ACCOUNT_SID")
