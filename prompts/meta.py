"""L2FeatureMeta: what every L2 feature file declares besides its prose."""
from __future__ import annotations

from pydantic import BaseModel, Field

from spine.context import estimate_tokens


class L2FeatureMeta(BaseModel):
    primary_tools: list[str] = Field(min_length=1)  # names from the tool matrix; the feature's main moves
    voice_applicable: bool  # False: SMS-only; True: the voice prompt absorbs voice_prompt_hint
    voice_prompt_hint: str | None = None
    token_estimate: int


def meta_for(prompt: str, *, primary_tools: list[str], voice_applicable: bool,
             voice_prompt_hint: str | None = None) -> L2FeatureMeta:
    """META with the token estimate computed from the PROMPT itself, so it cannot drift."""
    return L2FeatureMeta(primary_tools=primary_tools, voice_applicable=voice_applicable,
                         voice_prompt_hint=voice_prompt_hint, token_estimate=estimate_tokens(prompt))
