"""Office hours in the property's zone: parsed from the CLI's words, open or not at an instant."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest

from spine.office import Office, parse_hours

OFFICE = Office(property_id="pf_yale", phone="+12065550190", hours=[parse_hours("mon-fri 09:00-17:00")])
SEATTLE = "America/Los_Angeles"


@pytest.mark.parametrize(("at", "open_"), [
    (datetime(2026, 12, 7, 17, 0, tzinfo=UTC), True),  # Monday 09:00 in Seattle
    (datetime(2026, 12, 7, 16, 59, tzinfo=UTC), False),  # Monday 08:59
    (datetime(2026, 12, 8, 1, 0, tzinfo=UTC), False),  # Monday 17:00: closed
    (datetime(2026, 12, 5, 20, 0, tzinfo=UTC), False),  # Saturday noon
])
def test_open_in_the_property_zone(at, open_):
    assert OFFICE.is_open(at, SEATTLE) is open_


def test_days_lists_and_wraps():
    assert parse_hours("mon,wed 09:00-12:00").days == [0, 2]
    assert parse_hours("fri-mon 10:00-11:00").days == [0, 4, 5, 6]
    assert parse_hours("Sat 10:00-14:00").label() == "sat 10:00-14:00"
