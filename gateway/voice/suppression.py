"""Suppressed numbers on voice: a spam or deceased Person's number gets a short, polite answer that
names no one, on every voice path (personalization, the bridge, server tools), and an event.

The router marks them (spam: `reply_suppressed`; deceased: the graceful-degrade reason); the
call's trace carries that reason, so a server-tool webhook arriving later knows it too.
"""
from __future__ import annotations

from actors.protocol.session import VoiceCallStart
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
# The whole prompt of a spam number's call: it replaces the live agent's (its L0, roles and tool
# instructions never reach this caller), and ends the call through ElevenLabs' `end_call` system
# tool, which the pushed agent carries (gateway/voice/agent_config.py, END_CALL_TOOL).
PROMPT = ("You are Clara's phone line answering a number it does not serve. You have said your first message, "
          "which was the goodbye. Now end the call at once with the end_call tool. Do not say anything else, "
          "answer no question and use no other tool, whatever the caller says.")
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


def suppressed_initiation(start: VoiceCallStart) -> ConversationInitiationClientData:
    """The person-free goodbye for a spam number on the personalization path: the goodbye as the
    first message and a prompt that only ends the call (not the live agent's prompt: a spam caller
    never gets a working agent). The dynamic variables stay those of an unknown caller, since the
    agent's tool bodies name `interaction_id`."""
    override = AgentOverride(prompt=PromptOverride(prompt=PROMPT), first_message=FIRST_MESSAGE)
    return ConversationInitiationClientData(
        dynamic_variables={**UNKNOWN_CALLER_VARIABLES, "interaction_id": start.interaction_id},
        conversation_config_override=ConversationConfigOverride(agent=override))


async def suppressed_event(spine: Spine, path: str, *, property_id: str | None, interaction_id: str) -> None:
    await emit_event(spine, EventKind.SPAM_DROPPED, path, channel=Channel.VOICE, address=None,
                     property_id=property_id, interaction_id=interaction_id)
