"""Phone numbers to E.164, the one form the spine stores and compares."""
from __future__ import annotations

import re


class InvalidPhoneNumber(ValueError):
    """A wire address that cannot be read as a phone number."""


_ALLOWED = re.compile(r"^[\d\s().+\-]+$")


def normalize_phone(raw: str, default_country_code: str = "1") -> str:
    """`(206) 555-1001`, `206.555.1001`, `+1 206-555-1001` -> `+12065551001`.

    Ten digits without a country code are read as North American (NANP); anything else
    must carry its `+` country code. Raises InvalidPhoneNumber with the reason.
    """
    text = (raw or "").strip()
    if not text:
        raise InvalidPhoneNumber("empty phone number")
    if not _ALLOWED.match(text):
        raise InvalidPhoneNumber(f"phone number has characters other than digits and punctuation: {raw!r}")
    digits = re.sub(r"\D", "", text)
    if text.startswith("+"):
        if not 8 <= len(digits) <= 15:
            raise InvalidPhoneNumber(f"E.164 numbers have 8 to 15 digits, got {len(digits)}: {raw!r}")
        return "+" + digits
    if len(digits) == 10:
        return f"+{default_country_code}{digits}"
    if len(digits) == 11 and digits.startswith(default_country_code):
        return "+" + digits
    raise InvalidPhoneNumber(f"cannot read {raw!r} as a phone number (need 10 digits or +country code)")
