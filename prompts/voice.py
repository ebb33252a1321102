"""The voice carve-out (ADR "Voice carve-out"): one voice system prompt, assembled at sync time
from L0 and the union of every voice-applicable L2 feature's `voice_prompt_hint`, and the
per-call `[CONTEXT]` block that personalization injects.

The `[CONTEXT]` block shows personContext in the same order as the SMS volatile block
(summary, then the active pointers in `ActivePointers` field order, then the L1 breadcrumb), so a
caller's context reads the same on both channels (Finding 6.9).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from spine.context import FRESH_CONTACT_SUMMARY, ActivePointers, PersonContext
from spine.routing_types import L1Result

# Every variable the voice prompt uses; personalization must send each one (ElevenLabs rejects a
# conversation whose dynamic variables miss one the agent's prompt names).
UNKNOWN_CALLER_VARIABLES: dict[str, str | int | float | bool] = {
    "caller_name": "unknown caller",
    "caller_known": False,
    "person_id": "none",
    "roles": "other",
    "property_name": "this property",
    "unit": "none",
    "open_work_orders": 0,
    "interaction_id": "none",
}

VOICE_STYLE = """\
## On the phone
You are Clara on a live phone call. Speak in short, plain sentences, one question at a time.
No lists, markdown, links or emoji. Say numbers the way people say them ("two-oh-four").
Confirm what you heard before you create or change anything, and say what you did afterwards.
If someone reports gas, fire, active flooding, sparking or a threat, tell them to call 911 first,
then escalate to a human. Use only the tools you are given. When a tool refuses, the caller may
not do that: say so kindly and offer a person from the team. Never read IDs or call references aloud.
When the caller asks for a person ("let me talk to someone"), or an emergency needs one on the line
now, call transfer_to_staff; say you are connecting them only when its result says "connecting"."""

THIS_CALL = """\
## This call
Caller: {{caller_name}} (known caller: {{caller_known}}; Person ID: {{person_id}})
Roles at this property: {{roles}}
Property: {{property_name}}; unit: {{unit}}
Open work orders: {{open_work_orders}}
Call reference for tools: {{interaction_id}}
The CONTEXT block below, when present, is the fuller and authoritative view of this caller."""

_VARIABLE = re.compile(r"\{\{\s*([A-Za-z0-9_]+)\s*\}\}")
_BLOCK_MARKERS = re.compile(r"\[/?CONTEXT\]", re.IGNORECASE)


def template_variables(text: str) -> set[str]:
    """The dynamic variables a prompt names (ElevenLabs' own `system__*` ones excluded)."""
    return {name for name in _VARIABLE.findall(text) if not name.startswith("system__")}


# -- the voice system prompt (sync time) ------------------------------------------------------
class VoiceHint(BaseModel):
    meta_role: str
    feature: str
    hint: str


def voice_hints(features: Iterable[Any]) -> list[VoiceHint]:
    """The union of `voice_prompt_hint` over voice-applicable L2 features, in directory order,
    each distinct hint once."""
    seen: set[str] = set()
    hints = []
    for feature in features:
        meta = feature.meta
        text = (getattr(meta, "voice_prompt_hint", None) or "").strip()
        if getattr(meta, "voice_applicable", False) and text and text not in seen:
            seen.add(text)
            hints.append(VoiceHint(meta_role=str(feature.meta_role), feature=feature.name, hint=text))
    return hints


def build_voice_prompt(l0: str, features: Iterable[Any]) -> str:
    """L0, the phone manner, the meta-instructions absorbing every voice hint, and the call's
    variables. One prompt for every caller: the roles arrive per call in [CONTEXT]."""
    hints = voice_hints(features)
    lines = [f"- {h.feature} ({h.meta_role}): {h.hint}" for h in hints]
    handling = "## What callers bring up\n" + ("\n".join(lines) if lines else "- Listen, help, or offer a person.")
    return "\n\n".join([l0.strip(), VOICE_STYLE, handling, THIS_CALL])


def default_voice_prompt() -> str:
    """The prompt from the live L0 and L2 directory (what `gateway voice-prompt` prints)."""
    from prompts.directory import all_features
    from prompts.l0 import L0_PROMPT

    return build_voice_prompt(L0_PROMPT, all_features())


def voice_applicable_features(features: Iterable[Any]) -> list[str]:
    return [f.name for f in features if getattr(f.meta, "voice_applicable", False)]


# -- the per-call [CONTEXT] block ---------------------------------------------------------------
class VoiceContextView(BaseModel):
    """The slice of a caller that personalization shows the voice agent."""

    caller_name: str | None = None  # the Person on file for the number, if any
    person_id: str | None = None
    known: bool = False  # a Person with active roles here (not spam, not deceased, not a stranger)
    l1: L1Result
    features: list[str] = Field(default_factory=list)
    property_name: str = ""
    units: list[str] = Field(default_factory=list)
    context: PersonContext
    tool_names: list[str] = Field(default_factory=list)
    degraded: bool = False  # context could not be loaded in time
    # Parts of the block not shown because the call is not verified ("caller", "units", "summary" or
    # a pointer of personContext.active; actors.turn.call_opening decides which, from the tool matrix).
    withheld: frozenset[str] = frozenset()

    def shows(self, part: str) -> bool:
        return part not in self.withheld


def _clean(text: str) -> str:
    """Free text (a model-written summary) must not open or close the block itself."""
    return " ".join(_BLOCK_MARKERS.sub("", text).split())


def summary_of(context: PersonContext) -> str:
    """As the SMS block shows it: a never-refreshed context is a fresh contact, whatever it holds."""
    return FRESH_CONTACT_SUMMARY if context.refreshed_at is None else context.summary


def _when(value: datetime | None) -> str:
    return value.isoformat() if value else "none"


WITHHELD = "withheld until the caller is verified"
_POINTER_LINES: dict[str, tuple[str, Callable[[ActivePointers], str]]] = {
    "active_work_orders": ("Open work orders", lambda a: "; ".join(
        f"{w.display_id} ({_clean(w.brief)}, {w.status})" for w in a.active_work_orders) or "none"),
    "active_tours": ("Tours", lambda a: "; ".join(
        f"{t.id} ({t.status}, {t.scheduled_at})" for t in a.active_tours) or "none"),
    "active_renewal_workflow_id": ("Renewal in progress", lambda a: a.active_renewal_workflow_id or "none"),
    "last_channel": ("Last channel", lambda a: a.last_channel.value if a.last_channel else "none"),
    "last_interaction_at": ("Last interaction", lambda a: _when(a.last_interaction_at)),
}
# The idempotency key of the refresh, not something to tell the model.
HIDDEN_POINTERS = frozenset({"last_interaction_id"})
UNVERIFIED = ("Verification: this call is not verified, and the caller ID is not identity: the caller may not "
              "be the number's owner. Do not name or assume who they are. For anything about their account, "
              "offer to text a code to the number on file (send_verification_code).")


def pointer_lines(active: ActivePointers, withheld: frozenset[str] = frozenset()) -> list[str]:
    """personContext.active, one line per pointer, in the model's field order (the order the SMS
    volatile block serializes them in); a withheld pointer keeps its line, without its value."""
    lines = []
    for name in ActivePointers.model_fields:
        if name not in HIDDEN_POINTERS:
            label, value = _POINTER_LINES[name]
            lines.append(f"{label}: {WITHHELD if name in withheld else value(active)}")
    return lines


def _caller_line(view: VoiceContextView) -> str:
    if not view.shows("caller") and view.caller_name:
        return "a number on file, not named: " + WITHHELD
    if view.known and view.caller_name:
        return f"{_clean(view.caller_name)} (Person ID: {view.person_id})"
    if view.caller_name:
        # Spam, deceased, merged or no roles here: the caller ID names no one the agent may name.
        return "a number on file with no active roles here (not named: the caller ID is not identity)"
    return "unknown caller (no Person on file)"


def render_context_block(view: VoiceContextView) -> str:
    roles = [r.value for r in view.l1.roles]
    units = view.units if view.shows("units") else []
    place = view.property_name + (f" / Unit {', '.join(units)}" if units else "")
    lines = [
        "[CONTEXT]",
        f"Caller: {_caller_line(view)}",
        f"Active role: {', '.join(roles)}",
        f"Active feature: {', '.join(view.features) or 'none'}",
        f"Property: {place}",
        f"Recent: {_clean(summary_of(view.context)) if view.shows('summary') else WITHHELD}",
        *pointer_lines(view.context.active, view.withheld),
        f"Routing: {json.dumps(view.l1.breadcrumb(), sort_keys=True)}",
        f"Tool scope: {'/'.join(roles)} tools available ({', '.join(view.tool_names) or 'none'})",
    ]
    if view.withheld:
        lines.append(UNVERIFIED)
    if view.degraded:
        lines.append("Note: this caller's records could not be loaded in time; ask who they are and "
                     "offer a person from the team for anything account-specific.")
    lines.append("[/CONTEXT]")
    return "\n".join(lines)


def personalized_prompt(voice_prompt: str, view: VoiceContextView) -> str:
    return f"{voice_prompt}\n\n{render_context_block(view)}"


def call_variables(view: VoiceContextView, interaction_id: str) -> dict[str, str | int | float | bool]:
    """The dynamic variables of one call: scalars only, a value for every prompt variable."""
    values = dict(UNKNOWN_CALLER_VARIABLES, interaction_id=interaction_id)
    if view.property_name:
        values["property_name"] = view.property_name
    values["roles"] = ", ".join(r.value for r in view.l1.roles) or "other"
    if view.shows("active_work_orders"):
        values["open_work_orders"] = len(view.context.active.active_work_orders)
    if view.units and view.shows("units"):
        values["unit"] = ", ".join(view.units)
    if view.known and view.caller_name and view.person_id and view.shows("caller"):
        values.update(caller_name=_clean(view.caller_name), caller_known=True, person_id=view.person_id)
    return values


def first_message(view: VoiceContextView) -> str:
    where = view.property_name or "the leasing office"
    if view.known and view.caller_name and view.shows("caller"):
        return f"Hi {view.caller_name.split()[0]}, this is Clara at {where}. How can I help?"
    return f"Hi, this is Clara at {where}. How can I help you today?"
