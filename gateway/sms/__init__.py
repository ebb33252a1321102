"""The Twilio SMS channel adapter: small pure modules (form parsing, signatures, keywords,
splitting, TwiML, the REST client, outbound delivery) and the inbound handler that joins them.
The Serve routes in `routes.py` only move bytes between HTTP and `SmsHandler`."""
from gateway.sms.abandoned import AbandonedInboundSweep
from gateway.sms.delivery import Delivery
from gateway.sms.handler import SmsHandler, SmsOptions, SmsReply
from gateway.sms.inbound import InboundSms, MalformedWebhook, UnsupportedSender, parse_inbound
from gateway.sms.rest import SentMessage, TwilioRest, TwilioRestError
from gateway.sms.signature import sign, signature_valid
from gateway.sms.twilio_params import RecutWebhook, TwilioWebhook, check_form
from gateway.sms.twiml import TwimlError, read_twiml, render_twiml

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
