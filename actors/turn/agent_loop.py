"""The model <-> tools loop of one turn: call the model, run every tool_use through the
ToolRunner (concurrently), answer with tool_result blocks, repeat within rounds and a deadline."""
from __future__ import annotations

import asyncio
import time
from typing import Any

from actors.config import TurnBudget
from actors.model.base import ModelBackend, ModelRequest, ModelResponse, ModelUnavailable
from actors.protocol.turn import LoopOutcome, ToolRunner
from actors.turn.trace_builder import trace_call
from spine.toolspec import ToolInvocation, ToolResult
from tools.caller import Caller


async def run_tools(runner: ToolRunner, caller: Caller, uses: list[dict[str, Any]]) -> list[tuple[ToolInvocation, ToolResult]]:
    invocations = [ToolInvocation(name=u.get("name", ""), input=u.get("input") or {}, tool_use_id=u.get("id", ""))
                   for u in uses]
    results = await asyncio.gather(*(runner.run(inv, caller) for inv in invocations))
    return list(zip(invocations, results, strict=True))


async def _call_model(model: ModelBackend, request: ModelRequest, timeout_s: float) -> ModelResponse:
    """The model's answer, or ModelUnavailable: whatever goes wrong with a model (overload,
    timeout, a body that is not a Message, a tool_use we cannot answer) ends the turn the same way."""
    if timeout_s <= 0:
        raise ModelUnavailable("turn time budget exhausted")
    try:
        # asyncio.timeout, not wait_for: the call runs in this task, no task of its own per call.
        async with asyncio.timeout(timeout_s):
            response = await model.complete(request)
    except TimeoutError as exc:
        raise ModelUnavailable(f"model did not answer within {timeout_s:.1f}s") from exc
    except ModelUnavailable:
        raise
    except Exception as exc:  # a backend's unexpected fault is a model fault, not a crashed turn
        raise ModelUnavailable(f"{model.name}: {type(exc).__name__}: {exc}"[:300]) from exc
    if (problem := _malformed_tool_use(response)) is not None:
        raise ModelUnavailable(f"{response.model or model.name}: malformed answer ({problem})")
    return response


def _malformed_tool_use(response: ModelResponse) -> str | None:
    """Every tool_use needs an id (its tool_result answers it) and a name; otherwise None."""
    for block in response.tool_uses():
        if not isinstance(block.get("id"), str) or not block["id"]:
            return f"tool_use {block.get('name')!r} without an id"
        if not isinstance(block.get("name"), str) or not block["name"]:
            return "tool_use without a name"
        if not isinstance(block.get("input", {}), dict):
            return f"tool_use {block['name']!r} input is not an object"
    return None


async def run_agent_loop(model: ModelBackend, runner: ToolRunner, caller: Caller, request: ModelRequest,
                         budget: TurnBudget, started: float) -> LoopOutcome:
    out = LoopOutcome(messages=list(request.messages))
    facts = request.facts
    for _ in range(budget.max_rounds):
        remaining = budget.total_s - (time.monotonic() - started)
        t0 = time.monotonic()
        try:
            response = await _call_model(model, request.model_copy(update={"messages": out.messages, "facts": facts}),
                                         min(budget.model_call_s, remaining))
        except ModelUnavailable as exc:
            out.failure = str(exc)
            return out
        finally:
            out.model_ms += (time.monotonic() - t0) * 1000
        out.model, out.usage = response.model, out.usage + response.usage
        uses = response.tool_uses()
        if not uses:
            out.reply = response.text()
            return out
        out.messages.append({"role": "assistant", "content": response.content})
        t1 = time.monotonic()
        ran = await run_tools(runner, caller, uses)
        out.tools_ms += (time.monotonic() - t1) * 1000
        out.tool_calls += [trace_call(inv, res) for inv, res in ran]
        out.notifications += [n for _, res in ran for n in res.notifications]
        out.messages.append({"role": "user", "content": [res.to_api() for _, res in ran]})
        if facts is not None:  # the typed results ride along for backends that read values, not text
            facts = facts.model_copy(update={"results": [*facts.results, *(res for _, res in ran)]})
        out.reply = response.text()  # kept in case the rounds run out
    out.failure = out.failure or ("tool rounds exhausted" if not out.reply else None)
    return out
