"""Self-serve troubleshooting steps: a small, fixed knowledge base matched by keywords."""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Guide:
    topic: str
    keywords: tuple[str, ...]
    steps: tuple[str, ...]
    stop_if: str


GUIDES: tuple[Guide, ...] = (
    Guide("running toilet", ("toilet", "running", "keeps running", "flush"),
          ("Lift the tank lid and check whether the flapper at the bottom seals; jiggle the handle.",
           "Check the chain: it should have a little slack, not be tangled or caught under the flapper.",
           "If water runs into the overflow tube, the float is set too high; do not adjust it further."),
          "water is on the floor or the bowl overflows: turn the valve behind the toilet clockwise to shut it off."),
    Guide("clogged drain", ("clog", "drain", "slow drain", "backed up", "sink"),
          ("Run hot (not boiling) water for a minute.", "Use a plunger with a few firm strokes; cover the overflow.",
           "Do not use chemical drain cleaners; they damage pipes and make repairs unsafe."),
          "water backs up in more than one fixture, or sewage smell: stop using water and report it."),
    Guide("garbage disposal", ("disposal", "garbage disposal", "humming", "jammed"),
          ("Switch it off. Press the red reset button on the bottom of the unit.",
           "With power off, turn the hex socket underneath with the wrench (1/4 inch Allen key) to free it.",
           "Run cold water and switch it back on."),
          "it smells of burning or trips the breaker again: leave it off and report it."),
    Guide("no hot water", ("hot water", "water heater", "cold water"),
          ("Check whether other taps also lack hot water.", "Check the water heater breaker in your panel.",
           "Allow 30-60 minutes after heavy use for the tank to recover."),
          "you smell gas near the water heater: leave the unit and call 911, then tell us."),
    Guide("power out in part of the unit", ("breaker", "outlet", "power", "lights", "electric"),
          ("Find your breaker panel and reset any breaker in the middle position (push fully off, then on).",
           "Press the reset button on nearby GFCI outlets (kitchen, bathroom)."),
          "you see sparks, smell burning or a breaker trips immediately: leave it off and report it as urgent."),
    Guide("dishwasher not draining", ("dishwasher",),
          ("Remove and rinse the filter at the bottom of the tub.", "Make sure the disposal is clear and run it once.",
           "Run a short rinse cycle."), "water leaks onto the floor: stop the cycle and report it."),
    Guide("refrigerator not cooling", ("fridge", "refrigerator", "freezer", "not cooling"),
          ("Check the thermostat dial is set to the middle (3-4) and the door seals close.",
           "Clear anything blocking the vents inside.", "Wait 24 hours after changes before judging."),
          "food is spoiling: report it; we will prioritize a visit."),
    Guide("heating or cooling", ("heat", "heater", "furnace", "ac", "air conditioning", "thermostat", "cold"),
          ("Check the thermostat mode (heat/cool) and set point; replace its batteries if the display is blank.",
           "Make sure vents are open and unblocked.", "Check the HVAC breaker."),
          "you smell gas or burning: leave the unit and call 911."),
)

GENERAL = Guide("general", (), ("Note when the problem started and what you have tried.",
                                "A photo helps our technician bring the right parts."),
                "anything is unsafe (gas, fire, flooding, sparks): call 911 first.")


def find_guide(issue: str, appliance: str | None = None) -> Guide:
    """The guide whose keywords best match the issue; the general guide when none does."""
    text = f"{issue} {appliance or ''}".lower()
    scored = [(sum(1 for k in g.keywords if re.search(rf"\b{re.escape(k)}", text)), i, g)
              for i, g in enumerate(GUIDES)]
    best = max(scored, key=lambda s: (s[0], -s[1]))
    return best[2] if best[0] else GENERAL
