"""dispatch(): the only way a tool runs. Validate input, gate, run the handler once.

Whatever happens, the model gets a ToolResult; refusals, invalid input, handler failures and an
unavailable store all come back as `is_error` results with a reason, never as an exception.
Side-effecting tools are idempotent on (interaction_id, tool_use_id).
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from functools import cache
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import relevance
from pydantic import BaseModel, TypeAdapter, ValidationError

from spine.identity import utcnow
from spine.notification import Notification
from spine.repo import Spine
from spine.store.base import StoreUnavailable
from spine.toolrun import ToolRun, ToolRunState
from spine.toolspec import CallDecision, ToolInvocation, ToolResult
from tools.caller import Caller
from tools.decide import Decision
from tools.gate import gate
from tools.handlers.base import HandlerContext, Tool, ToolFailure
from tools.matrix import TOOL_ROLE_MATRIX
from tools.registry import TOOLS

log = logging.getLogger("clara.tools")

UNAVAILABLE = "the system is temporarily unavailable; please try again in a moment"
RUN_WAIT_S = 10.0  # how long a duplicate call waits for the first one to finish


@cache
def _validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(TOOLS[name].spec.input_schema)


def _invalid_reason(name: str, args: Any) -> str | None:
    """Every schema error (up to three), most relevant first, so the model can fix them in one go."""
    if not isinstance(args, dict):
        return "input must be a JSON object"
    errors = sorted(_validator(name).iter_errors(args), key=relevance, reverse=True)[:3]
    if not errors:
        return None
    return "; ".join(f"{'.'.join(str(p) for p in e.absolute_path)}: {e.message}" if e.absolute_path else e.message
                     for e in errors)


def _error(inv: ToolInvocation, content: str, *, reason: str, rule: str, decision: CallDecision = "refused") -> ToolResult:
    return ToolResult(tool_use_id=inv.tool_use_id, name=inv.name, content=content, is_error=True,
                      decision=decision, reason=reason, rule=rule)


def refusal(inv: ToolInvocation, decision: Decision) -> ToolResult:
    """The gate said no. The model gets the rule as a typed refusal (`refused` names its kind, so
    no reader parses the wording); the full reason stays on the result for the trace."""
    kind = decision.rule.split(":", 1)[0]
    refused = "scope" if kind == "target" else kind  # missing and not-yours look alike to the model
    content = json.dumps({"error": f"Not allowed: {decision.public}", "refused": refused})
    return _error(inv, content, reason=decision.reason, rule=decision.rule)


_NOTIFICATIONS = TypeAdapter(list[Notification])


def _notifications_of(output: BaseModel | str) -> list[Notification]:
    """What a handler's output says it queued for other people (a replay reads it back from the
    stored content), so the trace lists a call's notifications however it answered."""
    if isinstance(output, BaseModel):
        found = getattr(output, "notifications", None)
        return list(found) if isinstance(found, list) else []
    try:
        document = json.loads(output)
    except ValueError:
        return []
    listed = document.get("notifications") if isinstance(document, dict) else None
    try:
        return _NOTIFICATIONS.validate_python(listed) if isinstance(listed, list) else []
    except ValidationError:
        return []


def _replayed(inv: ToolInvocation, run: ToolRun) -> ToolResult:
    return ToolResult(tool_use_id=inv.tool_use_id, name=inv.name, content=run.content, is_error=run.is_error,
                      decision="allowed", reason="replayed: this call already ran", rule="idempotent-replay",
                      notifications=_notifications_of(run.content))


async def dispatch(spine: Spine, invocation: ToolInvocation, caller: Caller) -> ToolResult:
    started = time.perf_counter()
    try:
        result = await _dispatch(spine, invocation, caller)
    except StoreUnavailable as exc:
        result = _error(invocation, f"Error: {UNAVAILABLE}.", reason=f"store unavailable: {exc}",
                        rule="store-unavailable")
    except Exception as exc:  # a bug in one tool must not take the conversation down
        log.exception("tool %s crashed", invocation.name)
        result = _error(invocation, f"Error: {invocation.name} failed unexpectedly; nothing more was done.",
                        reason=f"handler failure: {type(exc).__name__}", rule="handler-failure",
                        decision="allowed")
    result.latency_ms = round((time.perf_counter() - started) * 1000, 3)
    log.info(json.dumps({"event": "tool/dispatch", "tool": result.name, "decision": result.decision,
                         "rule": result.rule, "is_error": result.is_error, "latency_ms": result.latency_ms,
                         "person_id": caller.person_id, "interaction_id": caller.interaction_id}))
    return result


async def _dispatch(spine: Spine, inv: ToolInvocation, caller: Caller) -> ToolResult:
    tool, policy = TOOLS.get(inv.name), TOOL_ROLE_MATRIX.get(inv.name)
    if tool is not None and policy is not None:
        invalid = _invalid_reason(inv.name, inv.input)
        if invalid is not None:
            return _error(inv, f"Error: invalid input for {inv.name}: {invalid}", reason=f"invalid input: {invalid}",
                          rule="invalid-input")
    keyed = policy is not None and not policy.read_only and bool(inv.tool_use_id)
    if keyed:
        done = await spine.get_tool_run(caller.interaction_id, inv.tool_use_id)
        if done is not None and done.state == ToolRunState.DONE:
            return _replayed(inv, done) if _same_call(done, inv, caller) else _reused(inv, done)
    outcome = await gate(spine, caller, inv.name, inv.input)
    decision = outcome.decision
    if not decision.allowed or tool is None:
        return refusal(inv, decision)
    try:
        args = tool.input_model.model_validate(inv.input)
    except ValidationError as exc:
        first = exc.errors()[0]
        invalid = f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
        return _error(inv, f"Error: invalid input for {inv.name}: {invalid}", reason=f"invalid input: {invalid}",
                      rule="invalid-input")
    ctx = HandlerContext(spine=spine, caller=caller, target=outcome.target)
    if not keyed:
        return await _run(inv, tool, ctx, args, decision.reason)
    return await _run_once(spine, inv, tool, ctx, args, decision.reason)


async def serve_prefetched(spine: Spine, inv: ToolInvocation, caller: Caller, prefetched: ToolResult) -> ToolResult:
    """A prefetched result goes to this caller only if the gate lets this caller make this very
    call now; the cost of a hit is one decision, not the lookup."""
    decision = (await gate(spine, caller, inv.name, inv.input)).decision
    if not decision.allowed:
        return refusal(inv, decision)
    return prefetched.model_copy(update={"tool_use_id": inv.tool_use_id, "prefetched": True})


def _same_call(run: ToolRun, inv: ToolInvocation, caller: Caller | None) -> bool:
    return run.name == inv.name and (caller is None or run.person_id == caller.person_id)


def _reused(inv: ToolInvocation, run: ToolRun) -> ToolResult:
    why = f"tool_use_id {inv.tool_use_id} already ran {run.name}"
    return _error(inv, f"Error: {why}", reason=why, rule="idempotency-conflict")


async def _run(inv: ToolInvocation, tool: Tool, ctx: HandlerContext, args: Any, reason: str) -> ToolResult:
    try:
        output = await tool.handler(ctx, args)
    except ToolFailure as exc:
        return _error(inv, f"Error: {exc}", reason=f"handler: {exc}", rule="handler-failure", decision="allowed")
    return ToolResult(tool_use_id=inv.tool_use_id, name=inv.name, content=json.dumps(output.model_dump(mode="json")),
                      decision="allowed", reason=reason, rule="allowed", texts=list(ctx.texts),
                      notifications=_notifications_of(output), call_move=next(iter(ctx.call_moves), None))


async def _run_once(spine: Spine, inv: ToolInvocation, tool: Tool, ctx: HandlerContext, args: Any,
                    reason: str) -> ToolResult:
    """Claim the key create-if-absent, run, store the result; a duplicate waits for and replays it."""
    caller = ctx.caller
    claim = ToolRun(interaction_id=caller.interaction_id, tool_use_id=inv.tool_use_id, name=inv.name,
                    person_id=caller.person_id)
    existing = await spine.claim_tool_run(claim)
    if existing is not None:
        return await _await_other(spine, inv, existing)
    try:
        result = await _run(inv, tool, ctx, args, reason)
    except BaseException:
        await spine.release_tool_run(caller.interaction_id, inv.tool_use_id)
        raise
    if result.is_error:
        await spine.release_tool_run(caller.interaction_id, inv.tool_use_id)  # nothing done; a retry may run
        return result
    done = claim.model_copy(update={"state": ToolRunState.DONE, "content": result.content, "finished_at": utcnow()})
    await spine.finish_tool_run(done)
    return result


async def _await_other(spine: Spine, inv: ToolInvocation, run: ToolRun) -> ToolResult:
    deadline = time.monotonic() + RUN_WAIT_S
    while run.state != ToolRunState.DONE and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
        found = await spine.get_tool_run(run.interaction_id, run.tool_use_id)
        if found is None:
            return _error(inv, f"Error: {inv.name} did not complete; try again.", reason="concurrent run failed",
                          rule="idempotency-retry", decision="allowed")
        run = found
    if run.state != ToolRunState.DONE:
        return _error(inv, f"Error: {inv.name} is still being processed.", reason="concurrent run still going",
                      rule="idempotency-wait", decision="allowed")
    return _replayed(inv, run) if _same_call(run, inv, None) else _reused(inv, run)
