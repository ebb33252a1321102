"""OfflineModel: a deterministic, rule-based policy that stands in for the model. NOT an LLM.

It lets the whole gateway run, and be tested, with no network and no API key. It speaks the same
ModelRequest/ModelResponse shapes as the Anthropic backend and plays by the same rules: it only
calls tools it was offered, it answers tool results, and it reads the caller context the prompt
assembler rendered. What it does, for a turn:

1. Read the request (`reading`): the caller's latest words, the tools offered, the tool calls and
   results since those words, and the context block's JSON (personContext active pointers: open
   work orders, tours, renewal; the L1 breadcrumb's roles; a caller name if one is given).
2. Extract entities (`entities`): WO numbers ("WO-7", "wo 42", "work order #9"), units, bedrooms
   ("2BR", "two bedroom", "studio"), dates ("next month", "Dec 15", "Tuesday"), clock times, ETAs
   ("10 min out", "at 3pm"), emergencies (gas, fire, flooding, sparks, threats) and the
   maintenance problem ("overflowing toilet", priority normal/urgent/emergency).
3. Round one (`policy.plan`): fixed-order keyword rules pick an intent and the offered tools for
   it: emergency -> escalate_to_human (+ an emergency work order for building hazards); a greeting
   to someone else -> wrong number, no tool; vendor ETA/done/hand-off/details on a WO; a work
   order status question answered straight from personContext.active when it lists the WO (no
   tool); a maintenance report -> create_work_order + get_troubleshooting_steps; a prospect's
   availability/pricing/tour/application question -> save_prospect + the prospect tools; tenant
   account questions; PM tools; facility questions -> the matching facility tool; "a real person"
   -> escalate_to_human. No rule, or no tool for it on offer -> a direct templated reply.
4. After tool results (`replies.compose`, `results`): one templated sentence per result, an
   opening and closing per intent. A failed action (not a refusal) is escalated once, when
   escalate_to_human is on offer, so the reply can truthfully say "I've flagged this for the team".

Side jobs (`side_jobs`): purpose="refresh" writes a capped summary from the transcript in the
messages (who, what they asked, what tools did, what Clara said); purpose="confirm" answers
"yes"/"no" from rental-inquiry keywords. Usage is estimated (spine.context.estimate_tokens) so
traces carry numbers; the model name is "offline-rules" and its cost is zero.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import date, datetime, timezone
from typing import Any

from actors.model.base import ModelRequest, ModelResponse
from actors.model.offline.entities import extract
from actors.model.offline.policy import Call, follow_up, plan
from actors.model.offline.reading import Reading, read_request
from actors.model.offline.replies import compose, direct
from actors.model.offline.results import error_reason, is_refusal
from actors.model.offline.side_jobs import confirm_answer, refresh_summary
from spine.context import estimate_tokens
from spine.records import Usage

MODEL_NAME = "offline-rules"


class OfflineModel:
    name = "offline"

    def __init__(self, today: Callable[[], date] | None = None) -> None:
        self._today = today or (lambda: datetime.now(timezone.utc).date())

    async def complete(self, request: ModelRequest) -> ModelResponse:
        reading = read_request(request)
        if request.purpose == "confirm":
            content = [_text(confirm_answer(request, self._today()))]
        elif request.purpose == "refresh":
            content = [_text(refresh_summary(request, reading))]
        else:
            content = self._turn(reading)
        uses_tools = any(b["type"] == "tool_use" for b in content)
        return ModelResponse(content=content, stop_reason="tool_use" if uses_tools else "end_turn",
                             usage=_usage(request, content), model=MODEL_NAME)

    def _turn(self, reading: Reading) -> list[dict[str, Any]]:
        ents = extract(reading.ask, self._today())
        chosen = plan(reading, ents)
        calls = [c for c in chosen.calls if c[0] in reading.offered]  # never a tool that was not offered
        if not reading.calls:
            return _tool_uses(calls, reading) if calls else [_text(direct(chosen, reading, ents))]
        reasons = {c.id: "" if is_refusal(c) else error_reason(c) for c in reading.calls if c.is_error}
        escalation = follow_up(reading, reasons)
        if escalation is not None:
            return _tool_uses([escalation], reading)
        return [_text(compose(chosen, reading, ents))]


def _tool_uses(calls: list[Call], reading: Reading) -> list[dict[str, Any]]:
    # Ids are a pure function of the conversation, so a retried turn asks for the same tool_use_id
    # and the dispatcher's idempotency key (interaction_id, tool_use_id) holds.
    seed = f"{reading.ask}|{reading.rounds}"
    return [{"type": "tool_use", "id": _tool_use_id(seed, i, name), "name": name, "input": _clean(args)}
            for i, (name, args) in enumerate(calls)]


def _tool_use_id(seed: str, index: int, name: str) -> str:
    digest = hashlib.sha256(f"{seed}|{index}|{name}".encode()).hexdigest()[:16]
    return f"toolu_off_{digest}"


def _clean(args: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in args.items() if v is not None}


def _text(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


_CATALOG_TOKENS: dict[tuple[str, ...], int] = {}  # one entry per distinct tool catalog (a few dozen)


def _catalog_tokens(tools: list[dict[str, Any]]) -> int:
    """Token estimate of a tool list, computed once per catalog: the same names, the same specs."""
    names = tuple(t.get("name", "") for t in tools if isinstance(t, dict))
    if names not in _CATALOG_TOKENS:
        _CATALOG_TOKENS[names] = estimate_tokens(json.dumps(tools, default=str))
    return _CATALOG_TOKENS[names]


def _usage(request: ModelRequest, content: list[dict[str, Any]]) -> Usage:
    prompt = json.dumps([request.system, request.messages], default=str)
    return Usage(input_tokens=estimate_tokens(prompt) + _catalog_tokens(request.tools),
                 output_tokens=estimate_tokens(json.dumps(content)))
