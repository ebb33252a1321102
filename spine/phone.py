"""Phone numbers to E.164, the one form the spine stores and compares: a wire address
(`normalize_phone`, North American unless it carries its + country code) and a PMS export's
number in any region (`normalize_phone_in_region`, `gateway import --default-region`)."""
from __future__ import annotations

import re

import phonenumbers

from spine.errors import SpineError


class InvalidPhoneNumber(SpineError, ValueError):
    """A wire address that cannot be read as a phone number."""


# ASCII only: \d would also admit Arabic-Indic and other Unicode digits.
_ALLOWED = re.compile(r"^\+?[0-9\s().\-]+$", re.ASCII)
_NON_DIGIT = re.compile(r"[^0-9]")
# North American Numbering Plan: area code and exchange both start with 2-9.
_NANP = re.compile(r"^1[2-9][0-9]{2}[2-9][0-9]{6}$")


def normalize_phone(raw: str, default_country_code: str = "1") -> str:
    """`(206) 555-1001`, `206.555.1001`, `+1 206-555-1001` -> `+12065551001`.

    Ten digits without a country code are read as North American (NANP); anything else
    must carry its `+` country code. Raises InvalidPhoneNumber with the reason.
    """
    if not isinstance(raw, str):
        raise InvalidPhoneNumber(f"phone number must be text, got {type(raw).__name__}")
    text = raw.strip()
    if not text:
        raise InvalidPhoneNumber("empty phone number")
    if not _ALLOWED.match(text):
        raise InvalidPhoneNumber(
            f"phone number may hold only digits, spaces, ( ) . - and a leading +: {raw!r}")
    digits = _NON_DIGIT.sub("", text)
    if text.startswith("+"):
        if not 8 <= len(digits) <= 15:
            raise InvalidPhoneNumber(f"E.164 numbers have 8 to 15 digits, got {len(digits)}: {raw!r}")
        e164 = "+" + digits
    elif len(digits) == 10:
        e164 = f"+{default_country_code}{digits}"
    elif len(digits) == 11 and digits.startswith(default_country_code):
        e164 = "+" + digits
    else:
        raise InvalidPhoneNumber(f"cannot read {raw!r} as a phone number (need 10 digits or +country code)")
    if e164.startswith("+1") and not _NANP.match(e164[1:]):
        raise InvalidPhoneNumber(f"{raw!r} is not a valid North American number (+1 and 10 digits, "
                                 "area code and exchange not starting with 0 or 1)")
    return e164


def normalize_phone_in_region(raw: str, region: str) -> str:
    """Any spelling a PMS exports -> E.164, read in `region` when it has no +country code."""
    try:
        number = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException as exc:
        raise InvalidPhoneNumber(f"cannot read {raw!r} as a phone number ({exc})") from None
    if not phonenumbers.is_valid_number(number):
        raise InvalidPhoneNumber(f"{raw!r} is not a valid phone number (read in region {region})")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
