"""Scoring one turn: the trace and reply against the scenario's expectations. Each check that
fails says what it wanted and what it saw."""
from __future__ import annotations

from typing import Any

from gateway.evals.scenario import NotificationExpectation, ToolExpectation, TurnExpectation
from spine.intent.language import detect_language
from spine.notification import Notification
from spine.records import AgentTrace, TraceToolCall


def _matches_input(expected: Any, actual: Any) -> bool:
    if isinstance(expected, str):
        return isinstance(actual, str) and expected.lower() in actual.lower()
    return expected == actual


def _call_matches(want: ToolExpectation, call: TraceToolCall) -> bool:
    if call.name != want.name or (want.decision and call.decision != want.decision):
        return False
    return all(key in call.input and _matches_input(value, call.input[key]) for key, value in want.input.items())


def _described(calls: list[TraceToolCall]) -> str:
    return ", ".join(f"{c.name}({c.decision})" for c in calls) or "no tool calls"


def _notified(want: NotificationExpectation, queued: list[tuple[Notification, str]]) -> bool:
    return any(n.recipient_person_id == want.to and (want.kind is None or n.kind == want.kind)
               and (want.status is None or n.status == want.status) and (want.channel is None or n.channel == want.channel)
               and all(phrase.lower() in body.lower() for phrase in want.says) for n, body in queued)


def _listed(queued: list[tuple[Notification, str]]) -> str:
    return "; ".join(f"{n.kind} to {n.recipient_person_id} by {n.channel}, {n.status}: {body[:80]!r}"
                     for n, body in queued) or "nothing"


def check_notifications(expect: TurnExpectation, queued: list[tuple[Notification, str]]) -> list[str]:
    """The other participants' side of a turn: what it queued for them, by their outbox rows."""
    failures = [f"no {w.kind or 'message'} to {w.to}{f' ({w.status})' if w.status else ''} saying {w.says}; "
                f"queued: {_listed(queued)}" for w in expect.notifications if not _notified(w, queued)]
    if expect.no_notifications and queued:
        failures.append(f"nobody else should have been messaged; queued: {_listed(queued)}")
    return failures


def check_turn(expect: TurnExpectation, trace: AgentTrace | None, reply: str, suppressed: bool,
               queued: list[tuple[Notification, str]] | None = None) -> list[str]:
    """The failed expectations of one turn ([] when it passed)."""
    failures: list[str] = check_notifications(expect, queued or [])
    if expect.suppressed is not None and suppressed != expect.suppressed:
        failures.append(f"suppressed: wanted {expect.suppressed}, got {suppressed}")
    if not suppressed and not reply.strip() and not expect.without_turn:  # a STOP is confirmed by Twilio
        failures.append("Clara went silent: empty reply")
    if expect.without_turn:  # a keyword's answer: only the reply and the others' side are scored
        lowered = reply.lower()
        failures += [f"reply lacks {p!r}" for p in expect.reply_contains if p.lower() not in lowered]
        failures += [f"reply must not contain {p!r}" for p in expect.reply_not_contains if p.lower() in lowered]
        return failures + (["an agent turn ran"] if trace is not None and trace.answered_by == "agent" else [])
    if trace is None:
        return failures + ["no trace was written for the turn"]
    routing = trace.routing
    if expect.roles is not None and sorted(routing.roles) != sorted(expect.roles):
        failures.append(f"roles: wanted {sorted(expect.roles)}, routed {sorted(routing.roles)}")
    if expect.confidence and routing.confidence != expect.confidence:
        failures.append(f"confidence: wanted {expect.confidence}, got {routing.confidence}")
    category = routing.other_classification.spine_category if routing.other_classification else None
    if expect.other_category and category != expect.other_category:
        failures.append(f"other category: wanted {expect.other_category}, got {category}")
    for want in expect.tools:
        if not any(_call_matches(want, c) for c in trace.tool_calls):
            failures.append(f"tool call {want.name}{want.input or ''} not made; made: {_described(trace.tool_calls)}")
    failures += [f"tool {name} was called but should not be" for name in expect.no_tools
                 if any(c.name == name for c in trace.tool_calls)]
    failures += [f"tool {name} not offered" for name in expect.offered if name not in trace.tools_offered]
    failures += [f"tool {name} offered but the caller's scope can never pass it" for name in expect.not_offered
                 if name in trace.tools_offered]
    lowered = reply.lower()
    failures += [f"reply lacks {phrase!r}" for phrase in expect.reply_contains if phrase.lower() not in lowered]
    if expect.reply_contains_any and not any(p.lower() in lowered for p in expect.reply_contains_any):
        failures.append(f"reply has none of {expect.reply_contains_any}")
    failures += [f"reply must not contain {phrase!r}" for phrase in expect.reply_not_contains
                 if phrase.lower() in lowered]
    if expect.language and reply and detect_language(reply) != expect.language:
        failures.append(f"reply language: wanted {expect.language}, got {detect_language(reply)}")
    kinds = {e.kind for e in trace.events}
    failures += [f"event {kind} missing (events: {sorted(kinds)})" for kind in expect.events if kind not in kinds]
    return failures
