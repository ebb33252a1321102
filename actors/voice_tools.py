"""What a phone call's tool calls share, whichever process runs them: the voice catalog's
defense in depth and the tool_use_id of a server-tool webhook call."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from actors.voice_opening import voice_tool_names
from spine.toolspec import ToolInvocation, ToolResult


def tool_use_id_for(name: str, parameters: dict[str, Any]) -> str:
    """Server-tool webhooks carry no call id; the same tool with the same input within one call is
    the same call (a retry), so side effects stay idempotent on (interaction_id, tool_use_id)."""
    digest = hashlib.sha256((name + json.dumps(parameters, sort_keys=True, default=str)).encode()).hexdigest()
    return f"wh-{digest[:16]}"


def not_on_the_phone(inv: ToolInvocation) -> ToolResult | None:
    """A tool outside the voice catalog never reached the voice agent's tool list; if a call for
    one slips through anyway it is refused here, before the DispatcherActor (defense in depth)."""
    if inv.name in voice_tool_names():
        return None
    return ToolResult(tool_use_id=inv.tool_use_id, name=inv.name, is_error=True, decision="refused",
                      reason=f"{inv.name} is not available on a phone call", rule="voice_catalog",
                      content="That can't be done on a phone call; I can have the team follow up by text.")
