"""detect_emergency: the deterministic net under L0's safety rule."""
from __future__ import annotations

import pytest

from prompts.safety import EMERGENCY_NUDGE, detect_emergency


@pytest.mark.parametrize(("message", "kind"), [
    ("I smell gas in the kitchen", "gas"),
    ("gas leak!!", "gas"),
    ("it smells like rotten eggs in the hallway", "gas"),
    ("the carbon monoxide alarm is going off", "gas"),
    ("there is a fire in the hallway", "fire"),
    ("There\u2019s a fire!", "fire"),
    ("smoke is pouring out of the oven", "fire"),
    ("the kitchen is full of smoke", "fire"),
    ("my bathroom is flooding", "flood"),
    ("my kitchen is flooded with water", "flood"),
    ("water is pouring through the ceiling", "flood"),
    ("burst pipe under the sink, water everywhere", "flood"),
    ("the outlet is sparking", "electrical"),
    ("sparks coming out of the light switch", "electrical"),
    ("I smell something burning from the panel", "electrical"),
    ("the breaker panel is smoking", "electrical"),
    ("someone has a gun in the lobby", "threat"),
    ("a guy with a knife is outside my door", "threat"),
    ("someone is breaking in right now", "threat"),
    ("my neighbor threatened to kill me", "threat"),
])
def test_emergencies_are_caught(message, kind):
    match = detect_emergency(message)
    assert match is not None and match.kind == kind
    assert match.matched.lower() in message.lower().replace("\u2019", "'")


@pytest.mark.parametrize("message", [
    "where is the nearest gas station", "my gas bill is high this month", "does the unit have a gas stove",
    "I'm fired up about the renewal", "can I store firewood on the balcony", "I'm on fire today",
    "is there a fire drill tomorrow?", "the smoke detector needs a battery",
    "sorry about the flood of emails", "we got flooded with calls", "my toilet is overflowing!",
    "the dishwasher is leaking a little", "sparkling water delivery for 204",
    "there was a break-in last week, can you fix the lock", "yo what's up Trevor", "",
])
def test_everyday_messages_are_not_emergencies(message):
    assert detect_emergency(message) is None


def test_the_nudge_sends_people_to_911():
    assert "911" in EMERGENCY_NUDGE and "safe place" in EMERGENCY_NUDGE
