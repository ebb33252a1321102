"""Inbound email through Mailgun routes (`forward()` to POST /email/inbound), replies through
Mailgun's messages API. The adapter verifies Mailgun's signature, judges whether the sender's
From is authenticated (SPF or DKIM passing aligned with its domain), and hands the same
MessageEnvelope the SMS adapter builds to the same PersonActor path."""
from gateway.email.authentication import SenderVerdict, judge_sender
from gateway.email.channel import EmailChannel
from gateway.email.delivery import EmailDelivery
from gateway.email.handler import EmailHandler, EmailResult
from gateway.email.inbound import InboundEmail, MalformedEmail, parse_inbound
from gateway.email.mailgun import MailgunError, MailgunMessages
from gateway.email.route_form import route_form

__all__ = [
    "EmailChannel",
    "EmailDelivery",
    "EmailHandler",
    "EmailResult",
    "InboundEmail",
    "MailgunError",
    "MailgunMessages",
    "MalformedEmail",
    "SenderVerdict",
    "judge_sender",
    "parse_inbound",
    "route_form",
]
