"""The one phone mask: a phone number never leaves in full, in a log line or an event's detail.
`mask_phones` replaces phone-like digit runs with `…` and their last four digits; every record of
a `clara.*` logger, in every process, goes through it whatever the call site formatted into it (an
address, a placement key, an error text), and so does every event detail (`spine.events`).

Installed as a log-record factory when `spine` is imported, because every process that runs Clara
code (Serve replicas, PersonActor hosts, the DispatcherActor, the CLI) imports it first.
"""
from __future__ import annotations

import logging
import re
from typing import Any

# Seven or more digits, possibly broken up by spaces, dots, dashes or parentheses, and standing
# alone: a digit run inside an id (a Twilio MessageSid, SM + 32 hex) or after a colon (a clock
# time's fraction) is not a phone number; a leading `+` is part of the number even after a colon
# (`addr:sms:+14155559876`, `whatsapp:+14155551234`).
_PHONE_IN_TEXT = re.compile(r"(?:(?<![\w+])\+|(?<![\w:+]))\(?\d(?:[\s().\-]*\d){6,}(?![\w:])")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MASKED = "_clara_phones_masked"


def _mask(match: re.Match[str]) -> str:
    text = match.group(0)
    if _ISO_DATE.fullmatch(text):
        return text
    return "…" + re.sub(r"\D", "", text)[-4:]


def mask_phones(text: str) -> str:
    """Replace every phone-like digit run with `…` and its last four digits (ids and dates stay)."""
    return _PHONE_IN_TEXT.sub(_mask, text)


# A local part (no separators an address key or a header puts around it) and a dotted domain.
_EMAIL_LIKE = re.compile(r"([^\s:;,<>\"'@]+)@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)")


def mask_addresses(text: str) -> str:
    """What a staff page or list may show of a wire address: phones as `…1234`, email addresses
    as their first character and domain (`m…@example.com`), as phones keep their last four."""
    return _EMAIL_LIKE.sub(lambda m: f"{m.group(1)[0]}…@{m.group(2)}", mask_phones(text))


def install_log_masking() -> None:
    """Idempotent: wraps the current record factory once per process."""
    current = logging.getLogRecordFactory()
    if getattr(current, _MASKED, False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        if record.name.startswith("clara"):
            record.msg, record.args = mask_phones(record.getMessage()), None
        return record

    setattr(factory, _MASKED, True)
    logging.setLogRecordFactory(factory)
