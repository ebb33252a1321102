"""OfflineModel: a deterministic, rule-based policy that stands in for the model. NOT an LLM.

It lets the whole gateway run, and be tested, with no network and no API key. It speaks the same
ModelRequest/ModelResponse shapes as the Anthropic backend and plays by the same rules: it only
calls tools it was offered and it answers tool results. Unlike a real model it never reads the
rendered prompt: it reads `request.facts` (TurnFacts: who is talking, roles, tenancies,
personContext pointers, the typed tool results), plus the conversation in the messages. A turn:

1. Read (`reading`): the caller's latest words and language (English or Spanish), the earlier
   turns, the tools offered, the tool calls since the words with their typed results (a refusal
   is the gate's typed decision; an output is the handler's own pydantic model).
2. Extract entities (`entities`): WO numbers, units, bedrooms, dates, clock times, ETAs, the
   emergency (spine.intent.emergency, the one vocabulary the safety net and prefetch share) and the
   maintenance problem, in English and Spanish.
3. Round one (`policy.plan`, with the vendor rules in `rules_vendor` and the staff rules in
   `rules_staff`; a rule's result is a `plans.Plan`): fixed-order rules pick an intent and the
   offered tools for it:
   emergency -> escalate_to_human (+ an emergency work order for building hazards); a greeting to
   someone else -> wrong number; vendor ETA/done/progress/hand-off/details on a WO; a status
   question answered from personContext.active; a maintenance report -> create_work_order (which
   adds to a matching open one) + troubleshooting; a prospect's availability/pricing/tour/application
   question, answered alike for everyone (a protected-class question gets the fair-housing answer);
   tenant account questions (a roommate is told who can answer a renewal); PM tools (open work
   orders, tours today / tomorrow / this week, lookups, renewals); facility
   questions; "a real person"; and follow-ups to Clara's own last question from the transcript
   ("Saturday at 11am" after "reply with a day and time" books the tour).
4. After tool results (`policy.next_round`, `replies.compose`): an action that failed is escalated
   once; a lookup that found the renewal's unit sends the renewal; then one templated sentence per
   result, what the caller can do for each refusal, one money format (spine.money), and never an
   opening that a failed result contradicts.

Side jobs (`side_jobs`): purpose="refresh" writes a capped summary from the transcript;
purpose="confirm" answers "yes"/"no" with the shipped intent classifier. Usage is estimated
(spine.context.estimate_tokens) so traces carry numbers; the model name is "offline-rules" and its
cost is zero.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import UTC, date, datetime
from typing import Any

from actors.model.base import ModelRequest, ModelResponse
from actors.model.offline.entities import extract
from actors.model.offline.plans import Call
from actors.model.offline.policy import next_round, plan
from actors.model.offline.reading import Reading, read_request
from actors.model.offline.replies import compose, direct
from actors.model.offline.side_jobs import confirm_answer, refresh_summary
from spine.context import estimate_tokens
from spine.records import Usage

MODEL_NAME = "offline-rules"


class OfflineModel:
    name = "offline"

    def __init__(self, today: Callable[[], date] | None = None) -> None:
        self._today = today or (lambda: datetime.now(UTC).date())

    async def complete(self, request: ModelRequest) -> ModelResponse:
        reading = read_request(request, self._today())
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
        ents = extract(reading.ask, reading.today)
        chosen = plan(reading, ents)
        ents = chosen.entities or ents
        if not reading.calls:
            calls = [c for c in chosen.calls if c[0] in reading.offered]  # never a tool that was not offered
            return _tool_uses(calls, reading) if calls else [_text(direct(chosen, reading, ents))]
        more = [c for c in next_round(reading, chosen) if c[0] in reading.offered]
        if more:
            return _tool_uses(more, reading)
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
    names = tuple(t.get("name", "") for t in tools)
    if names not in _CATALOG_TOKENS:
        _CATALOG_TOKENS[names] = estimate_tokens(json.dumps(tools, default=str))
    return _CATALOG_TOKENS[names]


def _usage(request: ModelRequest, content: list[dict[str, Any]]) -> Usage:
    # The system prompt is counted block by block (a length each), not re-serialised: it is
    # kilobytes, and the same on every turn of a role set.
    system = sum(estimate_tokens(str(block.get("text", ""))) for block in request.system)
    messages = estimate_tokens(json.dumps(request.messages, default=str))
    return Usage(input_tokens=system + messages + _catalog_tokens(request.tools),
                 output_tokens=estimate_tokens(json.dumps(content)))
