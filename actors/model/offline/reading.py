"""Reading a ModelRequest the way the offline policy needs it, from values, never from the prompt.

Who is talking and what is on record come from `request.facts` (TurnFacts); the tool results come
from its typed ToolResults (a refusal is `decision == "refused"`, not a phrase in the text), parsed
into the handler's own output model. From the messages it takes only the conversation: the
caller's latest words, the turns before them (so it can follow up its own questions) and the
tool calls it made since.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from pydantic import BaseModel, ValidationError

from actors.model.base import ModelRequest
from actors.model.turn_facts import TurnFacts
from spine.context import ActiveWorkOrder
from spine.intent.language import Language, language_in
from spine.toolspec import ToolResult
from tools.registry import output_model


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]
    result: ToolResult | None = None

    @property
    def is_error(self) -> bool:
        return self.result is None or self.result.is_error

    @property
    def refused(self) -> bool:
        """The gate said no (role or scope): a typed decision, relayed as what the caller can do."""
        return self.result is not None and self.result.decision == "refused" and self.result.rule != "invalid-input"

    @property
    def output(self) -> BaseModel | None:
        """The handler's output model, or None when the call failed or the result is not one."""
        model = output_model(self.name)
        if self.result is None or self.result.is_error or model is None:
            return None
        try:
            return model.model_validate_json(self.result.content)
        except ValidationError:
            return None

    @property
    def failure(self) -> str:
        """Why an allowed call failed, as the handler wrote it for the caller."""
        text = self.result.content if self.result else ""
        return text.removeprefix("Error:").strip().rstrip(".")[:160]


@dataclass
class Turn:
    role: str  # "user" | "assistant"
    text: str


@dataclass
class Reading:
    ask: str                      # the caller's latest words
    offered: list[str]            # tool names, in the order given
    facts: TurnFacts
    calls: list[ToolCall]         # since the ask, in order
    rounds: int                   # model rounds already taken since the ask
    earlier: list[Turn] = field(default_factory=list)  # the conversation before the ask, oldest first
    language: Language = "en"
    today: date = field(default_factory=date.today)

    def offers(self, *names: str) -> str | None:
        """The first of these tools that is on offer."""
        return next((n for n in names if n in self.offered), None)

    @property
    def first_name(self) -> str | None:
        return self.facts.first_name

    @property
    def work_orders(self) -> list[ActiveWorkOrder]:
        return self.facts.context.active.active_work_orders

    def work_order(self, display_id: str) -> ActiveWorkOrder | None:
        return next((w for w in self.work_orders if w.display_id.upper() == display_id.upper()), None)

    def earlier_asks(self) -> list[str]:
        return [t.text for t in self.earlier if t.role == "user"]

    def last_reply(self) -> str:
        return next((t.text for t in reversed(self.earlier) if t.role == "assistant"), "")


def read_request(request: ModelRequest, today: date) -> Reading:
    messages = request.messages
    ask_at = next((i for i in range(len(messages) - 1, -1, -1)
                   if messages[i].get("role") == "user" and message_text(messages[i])), -1)
    ask = message_text(messages[ask_at]) if ask_at >= 0 else ""
    facts = request.facts or TurnFacts()
    typed = {r.tool_use_id: r for r in facts.results}
    calls: dict[str, ToolCall] = {}
    rounds = 0
    for message in messages[ask_at + 1:]:
        content = message.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if message.get("role") == "assistant":
            rounds += 1
            for b in blocks:
                if b.get("type") == "tool_use":
                    use_id = b.get("id", "")
                    calls[use_id] = ToolCall(use_id, b.get("name", ""), b.get("input") or {}, typed.get(use_id))
        for b in blocks:  # a request built without facts: the block's text, with no gate decision to read
            call = calls.get(b.get("tool_use_id", "")) if b.get("type") == "tool_result" else None
            if call is not None and call.result is None:
                call.result = ToolResult(tool_use_id=call.id, name=call.name, content=_block_text(b.get("content")),
                                         is_error=bool(b.get("is_error")))
    earlier = [Turn(str(m.get("role")), text) for m in messages[:max(ask_at, 0)]
               if m.get("role") in ("user", "assistant") and (text := message_text(m))]
    # The conversation's language only decides when the ask itself does not lean either way.
    language = language_in(ask, " ".join(t.text for t in earlier if t.role == "user"))
    return Reading(ask=ask, offered=[t.get("name", "") for t in request.tools], facts=facts,
                   calls=list(calls.values()), rounds=rounds, earlier=earlier, language=language, today=today)


def _block_text(content: Any) -> str:
    if isinstance(content, list):
        return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return "" if content is None else str(content)


def message_text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        texts = (str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")
        return "\n".join(texts).strip()
    return ""
