"""Suppressed numbers on voice: a spam or deceased Person's number gets a short, polite answer that
names no one, on every voice path (personalization, the bridge, server tools), and an event.

The router marks them (spam: `reply_suppressed`; deceased: the graceful-degrade reason); the
call's trace carries that reason, so a server-tool webhook arriving later knows it too.
"""
from __future__ import annotations

from actors.voice_opening import VoiceCallStart
from gateway.voice.elevenlabs_wire import (
    AgentOverride,
    ConversationConfigOverride,
    ConversationInitiationClientData,
    PromptOverride,
)
from prompts.voice import UNKNOWN_CALLER_VARIABLES
from spine.context import Channel
from spine.events import GracefulDegradeReason, emit_event
from spine.records import AgentTrace, EventKind
from spine.repo import Spine

SUPPRESSING = frozenset({GracefulDegradeReason.PERSON_CATEGORY_SPAM, GracefulDegradeReason.DECEASED_PERSON})
FIRST_MESSAGE = "Hi, this is Clara. I'm sorry, I can't help with calls from this number. Goodbye."
CONTEXT = ("[CONTEXT]\nCaller: a number this line does not serve (no one to name)\n"
           "Instruction: say only your first message, then end the call. Answer nothing and use no tool.\n"
           "[/CONTEXT]")
TOOL_REFUSAL = "I can't help with that on this line."
# Staff must still hear from an estate-of caller (the ADR's light triage escalates them).
ALLOWED_TOOLS = frozenset({"escalate_to_human"})


def suppressed_reason(trace: AgentTrace | None) -> str | None:
    """Why this call's number is suppressed, from the trace its opening recorded; None if it is not."""
    if trace is None:
        return None
    for event in trace.events:
        if event.kind == EventKind.GRACEFUL_DEGRADE and event.reason in SUPPRESSING:
            return event.reason
    return None


def suppressed_initiation(start: VoiceCallStart, voice_prompt: str) -> ConversationInitiationClientData:
    """The person-free goodbye for a spam number on the personalization path: the one voice
    prompt, then a [CONTEXT] block that names no one (the payload shape every call has)."""
    override = AgentOverride(prompt=PromptOverride(prompt=f"{voice_prompt}\n\n{CONTEXT}"), first_message=FIRST_MESSAGE)
    return ConversationInitiationClientData(
        dynamic_variables={**UNKNOWN_CALLER_VARIABLES, "interaction_id": start.interaction_id},
        conversation_config_override=ConversationConfigOverride(agent=override))


async def suppressed_event(spine: Spine, path: str, *, property_id: str | None, interaction_id: str) -> None:
    await emit_event(spine, EventKind.SPAM_DROPPED, path, channel=Channel.VOICE, address=None,
                     property_id=property_id, interaction_id=interaction_id)
