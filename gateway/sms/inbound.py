"""The Twilio inbound-message webhook form, parsed into one typed model.

Twilio posts `application/x-www-form-urlencoded` with MessageSid, AccountSid, From, To, Body,
NumMedia, MediaUrl0..N-1 / MediaContentType0..N-1 and more (parameters may be added without
notice, so unknown ones are kept for the signature and otherwise ignored).
"""
from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qsl

from pydantic import BaseModel, Field
from starlette.datastructures import ImmutableMultiDict

from gateway.errors import MalformedInput
from gateway.untrusted import whole_number
from spine.masking import mask_phones
from spine.phone import InvalidPhoneNumber, normalize_phone

MAX_FORM_BYTES = 64 * 1024
MAX_MEDIA = 10  # Twilio delivers at most ten media items per message


class MalformedWebhook(MalformedInput):
    """The request is not a usable Twilio webhook; the message says what is wrong (HTTP 400)."""


class UnsupportedSender(MalformedWebhook):
    """A signed message whose From is not a phone number (a WhatsApp or short-code sender, an
    alphanumeric id). Not lost: the gateway records it, masked, and refuses it clearly."""

    def __init__(self, message_sid: str, masked_from: str, to_address: str, body: str) -> None:
        super().__init__(f"From {masked_from} is not a phone number; Clara answers SMS from phone numbers only")
        self.message_sid, self.masked_from, self.to_address, self.body = message_sid, masked_from, to_address, body


class InboundSms(BaseModel):
    message_sid: str
    account_sid: str | None = None
    messaging_service_sid: str | None = None
    from_address: str  # E.164
    to_address: str    # E.164
    body: str = ""
    num_media: int = 0
    media_urls: list[str] = Field(default_factory=list)
    media_content_types: list[str] = Field(default_factory=list)
    primary_error: str | None = None  # Twilio's ErrorCode when it posted this to the fallback URL


def decode_form(raw: bytes) -> ImmutableMultiDict:
    """The form as a multi-dict (the shape `RequestValidator` accepts), or MalformedWebhook."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MalformedWebhook(f"form body is not UTF-8: {exc}") from exc
    try:
        return ImmutableMultiDict(parse_qsl(text, keep_blank_values=True, strict_parsing=bool(text)))
    except ValueError as exc:
        raise MalformedWebhook(f"body is not application/x-www-form-urlencoded: {exc}") from exc


def _phone(form: Mapping[str, str], name: str) -> str:
    raw = (form.get(name) or "").strip()
    if not raw:
        raise MalformedWebhook(f"missing {name}: a Twilio message webhook always carries {name}")
    try:
        return normalize_phone(raw)
    except InvalidPhoneNumber as exc:
        raise MalformedWebhook(f"{name} is not a phone number: {exc}") from exc


def _num_media(form: Mapping[str, str]) -> int:
    raw = (form.get("NumMedia") or "0").strip()
    count = whole_number(raw)
    if count is None:
        raise MalformedWebhook(f"NumMedia must be a whole number, got {raw[:20]!r}")
    return min(count, MAX_MEDIA)


def parse_inbound(form: Mapping[str, str]) -> InboundSms:
    """Read the fields the gateway uses; MalformedWebhook names the first missing/bad one."""
    sid = (form.get("MessageSid") or form.get("SmsMessageSid") or "").strip()
    if not sid:
        raise MalformedWebhook("missing MessageSid: a Twilio message webhook always carries MessageSid")
    count = _num_media(form)
    urls = [form[f"MediaUrl{i}"] for i in range(count) if form.get(f"MediaUrl{i}")]
    types = [form.get(f"MediaContentType{i}", "") for i in range(count) if form.get(f"MediaUrl{i}")]
    to_address = _phone(form, "To")
    try:
        from_address = _phone(form, "From")
    except MalformedWebhook:
        if not (form.get("From") or "").strip():
            raise
        raise UnsupportedSender(sid, mask_phones(form["From"].strip())[:64], to_address, form.get("Body") or "") from None
    return InboundSms(
        message_sid=sid,
        account_sid=form.get("AccountSid") or None,
        messaging_service_sid=form.get("MessagingServiceSid") or None,
        from_address=from_address,
        to_address=to_address,
        body=form.get("Body") or "",
        num_media=count,
        media_urls=urls,
        media_content_types=types,
        primary_error=form.get("ErrorCode") or None,
    )
