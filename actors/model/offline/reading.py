"""Reading a ModelRequest the way the offline policy needs it: the caller's latest words, the
tool calls and results since then, the tools on offer, and the caller context the prompt
assembler put in the system blocks (personContext active pointers and the L1 breadcrumb, as JSON)."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from actors.model.base import ModelRequest

NAME_KEYS = ("display_name", "caller_name", "person_name", "first_name")
NAME_LINE = re.compile(
    r"\b(?i:caller(?:\s+name)?|person|name|speaking\s+with|talking\s+(?:to|with))\s*[:=]\s*\"?"
    r"([A-Z][a-zA-Z'\-]+(?:\s+[A-Z][a-zA-Z'\-]+)?)")
CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


@dataclass
class CallerContext:
    name: str | None = None
    roles: list[str] = field(default_factory=list)
    work_orders: list[dict[str, Any]] = field(default_factory=list)  # {id, display_id, status, brief}
    tours: list[dict[str, Any]] = field(default_factory=list)
    renewal_id: str | None = None

    @property
    def first_name(self) -> str | None:
        return self.name.split()[0] if self.name else None

    def work_order(self, display_id: str) -> dict[str, Any] | None:
        return next((w for w in self.work_orders if str(w.get("display_id", "")).upper() == display_id.upper()), None)

    def assigned_to_me(self, wo: dict[str, Any]) -> bool:
        return "assigned vendor" in str(wo.get("brief", ""))


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]
    result: str | None = None
    is_error: bool = False

    def data(self) -> Any:
        """The result as JSON when it is JSON (tool results are json.dumps of a model), else text."""
        try:
            return json.loads(self.result or "")
        except ValueError:
            return self.result or ""


@dataclass
class Reading:
    ask: str                      # the caller's latest words
    offered: list[str]            # tool names, in the order given
    context: CallerContext
    calls: list[ToolCall]         # since the ask, in order
    rounds: int                   # model rounds already taken since the ask

    def offers(self, *names: str) -> str | None:
        """The first of these tools that is on offer."""
        return next((n for n in names if n in self.offered), None)


def read_request(request: ModelRequest) -> Reading:
    messages = request.messages
    ask_at = max((i for i, m in enumerate(messages) if m.get("role") == "user" and message_text(m)), default=-1)
    ask = message_text(messages[ask_at]) if ask_at >= 0 else ""
    calls: dict[str, ToolCall] = {}
    rounds = 0
    for message in messages[ask_at + 1:]:
        content = message.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if message.get("role") == "assistant":
            rounds += 1
            for b in blocks:
                if b.get("type") == "tool_use":
                    calls[b.get("id", "")] = ToolCall(b.get("id", ""), b.get("name", ""), b.get("input") or {})
        for b in blocks:
            if b.get("type") == "tool_result" and b.get("tool_use_id") in calls:
                call = calls[b["tool_use_id"]]
                call.result, call.is_error = result_text(b.get("content")), bool(b.get("is_error"))
    offered = [t.get("name", "") for t in request.tools if isinstance(t, dict)]
    return Reading(ask=ask, offered=offered, context=read_context(system_text(request)),
                   calls=list(calls.values()), rounds=rounds)


def message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        texts = (str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
        return "\n".join(texts).strip()
    return ""


def result_text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(b.get("text", "") for b in content if isinstance(b, dict))
    return "" if content is None else str(content)


def system_text(request: ModelRequest) -> str:
    """The per-interaction part of the system prompt: the blocks after the last cache breakpoint
    (instructions above it are the same for every caller and hold no context), or all of it
    when nothing is marked."""
    blocks = [b for b in request.system if isinstance(b, dict)]
    marked = [i for i, b in enumerate(blocks) if b.get("cache_control")]
    tail = blocks[marked[-1] + 1:] if marked else blocks
    return "\n".join(b.get("text", "") for b in tail)


def read_context(text: str) -> CallerContext:
    context = CallerContext()
    for obj in json_objects(text):
        _absorb(context, _snake(obj))
    if context.name is None and (m := NAME_LINE.search(text)):
        context.name = m.group(1)
    return context


def _absorb(context: CallerContext, obj: Any) -> None:
    if isinstance(obj, list):
        for item in obj:
            _absorb(context, item)
        return
    if not isinstance(obj, dict):
        return
    if isinstance(obj.get("active_work_orders"), list):
        context.work_orders = [w for w in obj["active_work_orders"] if isinstance(w, dict)]
        context.tours = [t for t in obj.get("active_tours") or [] if isinstance(t, dict)]
        context.renewal_id = obj.get("active_renewal_workflow_id")
    if isinstance(obj.get("roles"), list) and all(isinstance(r, str) for r in obj["roles"]):
        context.roles = [r.lower() for r in obj["roles"]]
    for key in NAME_KEYS:
        if context.name is None and isinstance(obj.get(key), str) and obj[key].strip():
            context.name = obj[key].strip()
    for value in obj.values():
        if isinstance(value, (dict, list)):
            _absorb(context, value)


def json_objects(text: str) -> list[Any]:
    """Every top-level JSON object embedded in free text."""
    decoder, found, i = json.JSONDecoder(), [], text.find("{")
    while i != -1:
        try:
            obj, end = decoder.raw_decode(text, i)
        except ValueError:
            i = text.find("{", i + 1)
            continue
        found.append(obj)
        i = text.find("{", end)
    return found


def _snake(obj: Any) -> Any:
    # The contract renders snake_case; camelCase (the ADR's TypeScript spelling) reads the same.
    if isinstance(obj, dict):
        return {CAMEL.sub("_", k).lower() if isinstance(k, str) else k: _snake(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_snake(v) for v in obj]
    return obj
