"""The Twilio SMS channel adapter: small pure modules (form parsing, signatures, keywords,
splitting, TwiML, the REST client, outbound delivery) and the inbound handler that joins them.
The Serve routes in `routes.py` only move bytes between HTTP and `SmsHandler`.
Each name below is imported on first use (PEP 562): the settings import `gateway.sms.options`
without the channel."""
import typing

from spine.lazy_names import lazy_names as _lazy_names

if typing.TYPE_CHECKING:
    from gateway.sms.abandoned import AbandonedInboundSweep
    from gateway.sms.delivery import Delivery
    from gateway.sms.handler import SmsHandler, SmsReply
    from gateway.sms.inbound import InboundSms, MalformedWebhook, UnsupportedSender, parse_inbound
    from gateway.sms.options import SmsOptions
    from gateway.twilio.params import RecutWebhook, TwilioWebhook, check_form
    from gateway.twilio.rest import SentMessage, TwilioRest, TwilioRestError
    from gateway.twilio.signature import sign, signature_valid
    from gateway.twilio.twiml_sms import TwimlError, read_twiml, render_twiml

_HOMES = {
    "AbandonedInboundSweep": "gateway.sms.abandoned",
    "Delivery": "gateway.sms.delivery",
    "InboundSms": "gateway.sms.inbound",
    "MalformedWebhook": "gateway.sms.inbound",
    "RecutWebhook": "gateway.twilio.params",
    "SentMessage": "gateway.twilio.rest",
    "SmsHandler": "gateway.sms.handler",
    "SmsOptions": "gateway.sms.options",
    "SmsReply": "gateway.sms.handler",
    "TwilioRest": "gateway.twilio.rest",
    "TwilioRestError": "gateway.twilio.rest",
    "TwilioWebhook": "gateway.twilio.params",
    "TwimlError": "gateway.twilio.twiml_sms",
    "UnsupportedSender": "gateway.sms.inbound",
    "check_form": "gateway.twilio.params",
    "parse_inbound": "gateway.sms.inbound",
    "read_twiml": "gateway.twilio.twiml_sms",
    "render_twiml": "gateway.twilio.twiml_sms",
    "sign": "gateway.twilio.signature",
    "signature_valid": "gateway.twilio.signature",
}

__getattr__ = _lazy_names(__name__, _HOMES)


__all__ = [
    "AbandonedInboundSweep",
    "Delivery",
    "InboundSms",
    "MalformedWebhook",
    "RecutWebhook",
    "SentMessage",
    "SmsHandler",
    "SmsOptions",
    "SmsReply",
    "TwilioRest",
    "TwilioRestError",
    "TwilioWebhook",
    "TwimlError",
    "UnsupportedSender",
    "check_form",
    "parse_inbound",
    "read_twiml",
    "render_twiml",
    "sign",
    "signature_valid",
]
