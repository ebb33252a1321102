"""A deterministic safety net under L0's safety rule.

The model is told to nudge 911 and escalate on an emergency; this catches the turn where it does
not. The interaction runs `detect_emergency` (spine.intent.emergency, the one emergency vocabulary the
offline model and prefetch share) on every inbound, the 'other' lane included, and on a match
forces an escalate_to_human call and prepends the nudge, in the language the caller wrote in.
"""
from __future__ import annotations

from spine.intent.emergency import EmergencyKind, EmergencyMatch, detect_emergency
from spine.intent.language import Language

__all__ = ["EMERGENCY_NUDGE", "EmergencyKind", "EmergencyMatch", "detect_emergency", "emergency_nudge"]

# No promise here of who is alerted: the nudge is prepended before the forced escalation's page has
# run; whether the on-call team was reached is said by the reply, from the tool's on_call result.
EMERGENCY_NUDGE = "If anyone is in danger, call 911 now and get to a safe place."
EMERGENCY_NUDGE_ES = "Si alguien está en peligro, llame al 911 ahora y póngase a salvo."


def emergency_nudge(language: Language) -> str:
    return EMERGENCY_NUDGE_ES if language == "es" else EMERGENCY_NUDGE
