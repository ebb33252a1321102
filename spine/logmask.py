"""Phone numbers never reach a log in full: every record of a `clara.*` logger, in every process,
has phone-like digit runs replaced by `…` and their last four digits, whatever the call site
formatted into it (an address, a placement key, an error text).

Installed as a log-record factory when `spine` is imported, because every process that runs Clara
code (Serve replicas, PersonActor hosts, the DispatcherActor, the CLI) imports it first.
"""
from __future__ import annotations

import logging
import re
from typing import Any

# Seven or more digits, possibly broken up by spaces, dots, dashes or parentheses, and standing
# alone: a digit run inside an id (SM0123456789abcdef) or a clock time is not a phone number.
_PHONE_IN_TEXT = re.compile(r"(?<![\w:])\+?\(?\d(?:[\s().\-]*\d){6,}(?![\w:])")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_MASKED = "_clara_phones_masked"


def _mask(match: re.Match[str]) -> str:
    text = match.group(0)
    if _ISO_DATE.fullmatch(text):
        return text
    return "…" + re.sub(r"\D", "", text)[-4:]


def mask_log_text(text: str) -> str:
    return _PHONE_IN_TEXT.sub(_mask, text)


def install_log_masking() -> None:
    """Idempotent: wraps the current record factory once per process."""
    current = logging.getLogRecordFactory()
    if getattr(current, _MASKED, False):
        return

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = current(*args, **kwargs)
        if record.name.startswith("clara"):
            record.msg, record.args = mask_log_text(record.getMessage()), None
        return record

    setattr(factory, _MASKED, True)
    logging.setLogRecordFactory(factory)
