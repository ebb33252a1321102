"""The form Mailgun's `forward()` action posts for a parsed inbound message, read into one model.

Mailgun posts `application/x-www-form-urlencoded`, or `multipart/form-data` when the message has
attachments (the files arrive as `attachment-1..N`, announced by `attachment-count`). The fields
the gateway reads: `sender` (SMTP MAIL FROM), `from` (the From header), `recipient` (SMTP RCPT TO,
comma-separated when several of ours were addressed), `subject`, `body-plain`, `stripped-text`
(the reply without quoted history or signature), `message-headers` (every MIME header as a JSON
list of [name, value] pairs, in order, topmost first), `Message-Id`, and the signature fields
`timestamp`, `token`, `signature`. Attachments are counted, never read.
"""
from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from email.utils import getaddresses

from mailparser_reply import EmailReplyParser
from pydantic import BaseModel, Field

from gateway.errors import MalformedInput
from gateway.untrusted import json_value, whole_number

MAX_EMAIL_BYTES = 25 * 1024 * 1024  # Mailgun accepts messages up to 25 MB, attachments included
MAX_TEXT_CHARS = 8000  # what Clara reads of one message; a longer body is cut, never refused
MAX_SUBJECT_CHARS = 200  # RFC 5322 suggests 78 per line; a longer subject is cut, never refused


class MalformedEmail(MalformedInput):
    """A signed request that is not a usable Mailgun inbound message; the message says why (400)."""


class InboundEmail(BaseModel):
    message_id: str              # without the angle brackets
    from_address: str            # lower-cased addr-spec of the From header
    from_name: str = ""
    envelope_sender: str = ""    # SMTP MAIL FROM (what SPF checked)
    recipients: list[str]        # lower-cased, in the order Mailgun gave them
    subject: str = ""
    text: str = ""               # what Clara reads: the reply without quoted history
    references: list[str] = Field(default_factory=list)  # the thread so far, oldest first, with <>
    headers: list[tuple[str, str]] = Field(default_factory=list)
    attachment_count: int = 0

    def receiver_headers(self) -> list[tuple[str, str]]:
        """The headers above the first `Received`: the block the receiving MTA (Mailgun) wrote.
        Every hop prepends, so each header a sender or a relay wrote sits below a Received some
        MTA added on the way; without any Received nothing is provably the receiver's."""
        for index, (key, _) in enumerate(self.headers):
            if key.lower() == "received":
                return self.headers[:index]
        return []

    def all_headers(self, name: str) -> list[str]:
        wanted = name.lower()
        return [value for key, value in self.headers if key.lower() == wanted]


def clean_subject(raw: str | None) -> str:
    """A subject safe to read and to send back: control and format characters (CR, LF, NUL, bidi
    overrides, zero-width marks) become spaces, runs of space one, at most MAX_SUBJECT_CHARS.
    Where a sender's CR/LF could end a header and start another, there is none left."""
    text = "".join(" " if unicodedata.category(ch).startswith("C") else ch for ch in raw or "")
    return " ".join(text.split())[:MAX_SUBJECT_CHARS].strip()


def single_address(raw: str, field: str) -> tuple[str, str]:
    """(display name, lower-cased address) of a header naming exactly one mailbox."""
    found = [(name, addr) for name, addr in getaddresses([raw or ""]) if addr]
    if not found:
        raise MalformedEmail(f"{field} is empty or names no address: {raw[:120]!r}")
    if len(found) > 1:
        raise MalformedEmail(f"{field} names {len(found)} addresses; Clara answers exactly one sender")
    name, addr = found[0]
    if "@" not in addr or addr.startswith("@") or addr.endswith("@"):
        raise MalformedEmail(f"{field} is not an email address: {addr[:120]!r}")
    return name, addr.strip().lower()


def _headers(raw: str | None) -> list[tuple[str, str]]:
    if not raw:
        return []
    try:
        pairs = json_value(raw)
    except ValueError as exc:
        raise MalformedEmail(f"message-headers is not JSON: {exc}") from exc
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(v, str) for v in p) for p in pairs
    ):
        raise MalformedEmail("message-headers must be a JSON list of [name, value] string pairs")
    return [(name, value) for name, value in pairs]


# Headers the gateway reads from their own fields when `message-headers` is absent. Mailgun posts
# every header as its own field too, but without their order no verdict there is provably
# Mailgun's (a sender can write `X-Mailgun-Spf` themselves), so only the thread's ids are read.
_READ_HEADERS = ("Message-Id", "References")


def _header_fields(form: Mapping[str, str]) -> list[tuple[str, str]]:
    wanted = {name.lower(): name for name in _READ_HEADERS}
    return [(wanted[key.lower()], value) for key, value in form.items()
            if key.lower() in wanted and isinstance(value, str)]


def _message_id(form: Mapping[str, str], headers: list[tuple[str, str]]) -> str:
    raw = form.get("Message-Id") or form.get("message-id") or next(
        (v for k, v in headers if k.lower() == "message-id"), "")
    message_id = raw.strip().strip("<>").strip()
    if not message_id or any(ch.isspace() or unicodedata.category(ch) == "Cc" for ch in message_id):
        raise MalformedEmail(f"missing or unreadable Message-Id ({raw[:80]!r}); Mailgun always sends one")
    return message_id


def _attachment_count(form: Mapping[str, str]) -> int:
    raw = (form.get("attachment-count") or "0").strip()
    count = whole_number(raw)
    if count is None:
        raise MalformedEmail(f"attachment-count must be a whole number, got {raw[:20]!r}")
    return count


def readable_text(stripped: str | None, body_plain: str) -> str:
    """The new part of the message. Mailgun's stripped-text when it sent one; otherwise body-plain
    with the quoted history ("On ... wrote:", "> ...") and signature cut by a reply parser."""
    text = stripped if stripped and stripped.strip() else EmailReplyParser(languages=["en"]).parse_reply(
        text=body_plain or "")
    return (text or "").strip()[:MAX_TEXT_CHARS]


def parse_inbound(form: Mapping[str, str]) -> InboundEmail:
    """The fields the gateway uses; MalformedEmail names the first missing or bad one."""
    headers = _headers(form.get("message-headers")) if "message-headers" in form else _header_fields(form)
    name, address = single_address(form["from"] if "from" in form else form.get("From", ""), "from")
    recipients = [addr.strip().lower() for _, addr in getaddresses([form.get("recipient") or ""]) if addr]
    if not recipients:
        raise MalformedEmail("missing recipient: a Mailgun route always names the address it received mail for")
    sender = form.get("sender") or ""
    _, envelope_sender = single_address(sender, "sender") if sender.strip() else ("", "")
    references = [r for r in (form.get("References") or next(
        (v for k, v in headers if k.lower() == "references"), "")).split()
        if r.startswith("<") and r.endswith(">") and r.isprintable()]  # they go back out in References
    return InboundEmail(
        message_id=_message_id(form, headers), from_address=address, from_name=name,
        envelope_sender=envelope_sender, recipients=recipients, subject=clean_subject(form.get("subject")),
        text=readable_text(form.get("stripped-text"), form.get("body-plain") or ""),
        references=references, headers=headers, attachment_count=_attachment_count(form),
    )
