"""TwiML <Response> rendering (twilio.twiml.messaging_response) and reading it back."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from twilio.twiml.messaging_response import MessagingResponse

from gateway.errors import MalformedInput
from gateway.xml_text import xml_safe

TWIML_MEDIA_TYPE = "application/xml"


def render_twiml(messages: list[str]) -> str:
    """One <Message> per part; an empty list is the empty acknowledgement `<Response/>`."""
    response = MessagingResponse()
    for body in messages:
        response.message(xml_safe(body))  # a control character would make it no XML at all
    return str(response)


class TwimlError(MalformedInput):
    """Not a TwiML <Response> document."""


def read_twiml(document: str) -> list[str]:
    """The <Message> bodies of a TwiML response, in order (the CLI prints them)."""
    try:
        root = ET.fromstring(document)
    except ET.ParseError as exc:
        raise TwimlError(f"not XML: {exc}") from exc
    if root.tag != "Response":
        raise TwimlError(f"expected <Response>, got <{root.tag}>")
    bodies = []
    for message in root.iter("Message"):
        body = message.find("Body")
        bodies.append((body.text if body is not None else message.text) or "")
    return bodies
