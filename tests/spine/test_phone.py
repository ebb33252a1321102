"""normalize_phone: every spelling of one number is one E.164 string; anything else is a clear error."""
from __future__ import annotations

import pytest

from spine.phone import InvalidPhoneNumber, normalize_phone


@pytest.mark.parametrize("raw", [
    "(206) 555-1001", "206-555-1001", "206.555.1001", "2065551001", " 206 555 1001 ",
    "+1 206-555-1001", "+1 (206) 555-1001", "+12065551001", "1-206-555-1001", "12065551001",
])
def test_spellings_of_one_number_are_one_e164(raw):
    assert normalize_phone(raw) == "+12065551001"


@pytest.mark.parametrize("raw, e164", [
    ("+44 20 7946 0958", "+442079460958"),
    ("+33 1 23 45 67 89", "+33123456789"),
    ("+61-2-9876-5432", "+61298765432"),
])
def test_international_numbers_keep_their_country_code(raw, e164):
    assert normalize_phone(raw) == e164


@pytest.mark.parametrize("raw, reason", [
    ("", "empty"),
    ("   ", "empty"),
    ("call me maybe", "only digits"),
    ("206-555-1001 ext 5", "only digits"),
    ("tel:+12065551001", "only digits"),
    ("206+555+1001", "leading \\+"),
    ("++12065551001", "leading \\+"),
    ("555-1001", "need 10 digits"),
    ("206555100199", "need 10 digits"),
    ("+1234567", "8 to 15 digits"),
    ("+1234567890123456", "8 to 15 digits"),
    ("(000) 555-1001", "North American"),
    ("(206) 155-1001", "North American"),
    ("+1 206 555 100", "North American"),
    ("٢٠٦٥٥٥١٠٠١", "only digits"),  # Arabic-Indic digits are not ASCII digits
    ("２０６５５５１００１", "only digits"),  # nor are fullwidth ones
])
def test_bad_numbers_are_invalid_with_a_reason(raw, reason):
    with pytest.raises(InvalidPhoneNumber, match=reason):
        normalize_phone(raw)


@pytest.mark.parametrize("raw", [None, 2065551001])
def test_non_text_is_invalid_not_a_crash(raw):
    with pytest.raises(InvalidPhoneNumber, match="must be text"):
        normalize_phone(raw)


def test_invalid_phone_number_is_a_value_error():
    # Callers that guard with `except ValueError` keep working.
    assert issubclass(InvalidPhoneNumber, ValueError)
