"""L0, the L2 feature directory, prompt assembly with the cache breakpoint, and the voice prompt.

The names below are the prompt layer's public API; everything else is reached through its
module. Prompts are pure functions over typed values and raise no exceptions of their own.
"""
from prompts.assemble import AssembledPrompt, assemble_prompt, with_volatile
from prompts.context_check import filter_ghost_pointers
from prompts.directory import L2Feature, all_features, features_for
from prompts.l0 import L0_PROMPT, l0_text
from prompts.safety import emergency_nudge
from prompts.voice import (
    VoiceContextView,
    call_variables,
    default_voice_prompt,
    first_message,
    personalized_prompt,
    render_context_block,
)

__all__ = [
    "L0_PROMPT",
    "AssembledPrompt",
    "L2Feature",
    "VoiceContextView",
    "all_features",
    "assemble_prompt",
    "call_variables",
    "default_voice_prompt",
    "emergency_nudge",
    "features_for",
    "filter_ghost_pointers",
    "first_message",
    "l0_text",
    "personalized_prompt",
    "render_context_block",
    "with_volatile",
]
