"""The offline answers to the fast model's side jobs: the personContext refresh summary and the
intent-hint confirm. Both deterministic, both derived only from the request's text."""
from __future__ import annotations

import re
from datetime import date

from actors.model.base import ModelRequest
from actors.model.offline.reading import Reading, message_text
from spine.intent.hints import regex_hints
from spine.intent.mentions import work_order_ids

SUMMARY_CHARS = 800  # ~200 tokens, the ADR's summary size; the refresh caps again at 800 tokens
PREVIOUS = re.compile(r"^\s*previous\s+summary\s*:\s*(.*)$", re.IGNORECASE)
LINE = re.compile(r"^\s*(user|caller|tenant|vendor|prospect|human|assistant|agent|clara|ai)\s*:\s*(.*)$", re.IGNORECASE)
CALLER_ROLES = {"user", "caller", "tenant", "vendor", "prospect", "human"}
LEADING_NAME = re.compile(r"^([A-Z][a-z]+(?: [A-Z][a-z]+)?)(?: \(|\.)")
PERSON = re.compile(r"^\s*(?i:person|name)\s*:\s*([A-Z][a-zA-Z'\-]+(?: [A-Z][a-zA-Z'\-]+)?)", re.MULTILINE)
TAGGED = re.compile(r"<message>(.*?)</message>", re.DOTALL | re.IGNORECASE)


def refresh_summary(request: ModelRequest, reading: Reading) -> str:
    """Who, what they asked, what got done, what Clara said; capped. Reads the refresh prompt's
    'Previous summary:' and 'Conversation:' lines ('user: ...' / 'assistant: ...'), and also a
    transcript given as real messages with tool_use blocks."""
    previous = ""
    said: list[str] = []
    replies: list[str] = []
    for message in request.messages:
        current: list[str] | None = None
        in_previous = False
        for line in (raw.strip() for raw in message_text(message).splitlines()):
            if m := PREVIOUS.match(line):
                previous, current, in_previous = m.group(1).strip(), None, True
            elif m := LINE.match(line):
                current, in_previous = (said if m.group(1).lower() in CALLER_ROLES else replies), False
                current.append(m.group(2).strip())
            elif line.lower().startswith("conversation:"):
                in_previous = False
            elif line and in_previous:
                previous = f"{previous} {line}"
            elif line and current is None:  # a plain message, no 'role:' prefix
                current = said if message.get("role") == "user" else replies
                current.append(line)
            elif line and current is not None:  # one message spanning several lines
                current[-1] = f"{current[-1]} {line}"
    tools = [c.name for c in reading.calls]
    who = reading.facts.caller_name or _person(request, previous)
    roles = ", ".join(reading.facts.roles)
    parts = [f"{who} ({roles})." if roles else f"{who}."]
    if said:
        parts.append("Last asked: " + "; ".join(f'"{_clip(s, 120)}"' for s in said[-3:]) + ".")
    if tools:
        parts.append("Tools used: " + ", ".join(dict.fromkeys(tools)) + ".")
    if replies:
        parts.append(f'Clara replied: "{_clip(replies[-1], 200)}".')
    work_orders = work_order_ids(" ".join(said + replies))
    if work_orders:
        parts.append("Work orders mentioned: " + ", ".join(work_orders) + ".")
    if previous and not previous.lower().startswith(("this is a fresh contact", "(none)")):
        parts.append("Earlier: " + _clip(previous.split(". ", 1)[-1], 200))
    return _clip(" ".join(parts), SUMMARY_CHARS)


def confirm_answer(request: ModelRequest, today: date) -> str:
    """'yes' when the shipped intent classifier reads the message as a rental inquiry, else 'no'."""
    text = " ".join(message_text(m) for m in request.messages if m.get("role") == "user")
    message = m.group(1) if (m := TAGGED.search(text)) else text
    return "yes" if regex_hints(message).fires else "no"


def _person(request: ModelRequest, previous: str) -> str:
    """A 'Person: ...' line in the prompt, else the name the previous summary opened with."""
    if named := PERSON.search("\n".join(message_text(m) for m in request.messages)):
        return named.group(1)
    return m.group(1) if (m := LEADING_NAME.match(previous)) else "Caller"


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
