"""What a phone call's tool calls share, whichever process runs them: the voice catalog's
defense in depth and the tool_use_id of a server-tool webhook call."""
from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

from actors.turn.call_opening import voice_tool_names
from spine.toolspec import ToolInvocation, ToolResult


def tool_use_id_for(name: str, parameters: dict[str, Any], *, tool_call_id: str | None = None,
                    agent_turn: int | None = None) -> str:
    """The tool use a server-tool webhook call is, so side effects are idempotent on (interaction_id,
    tool_use_id) for a true retry and for nothing else. ElevenLabs' own `tool_call_id`, when the
    request carries one, is the call. Else the agent's turn counter (`system__agent_turns`, which
    the pushed tool's body carries: gateway/voice/agent_config.py) with the tool and its input: the
    same request again within one turn is a retry, the same tool asked again a turn later (the
    caller: "send it again") is a new call. With neither, nothing tells a retry from a new call, so
    each request is its own tool use (a second code is sent rather than silently none)."""
    if tool_call_id:
        return f"wh-{tool_call_id}"
    if agent_turn is None:
        return f"wh-{uuid.uuid4().hex[:16]}"
    keyed = json.dumps([name, agent_turn, parameters], sort_keys=True, default=str)
    return f"wh-t{agent_turn}-{hashlib.sha256(keyed.encode()).hexdigest()[:16]}"


def not_on_the_phone(inv: ToolInvocation) -> ToolResult | None:
    """A tool outside the voice catalog never reached the voice agent's tool list; if a call for
    one slips through anyway it is refused here, before the DispatcherActor (defense in depth)."""
    if inv.name in voice_tool_names():
        return None
    return ToolResult(tool_use_id=inv.tool_use_id, name=inv.name, is_error=True, decision="refused",
                      reason=f"{inv.name} is not available on a phone call", rule="voice_catalog",
                      content="That can't be done on a phone call; I can have the team follow up by text.")
