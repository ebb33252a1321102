"""Reading tool results for the templates. Results are JSON of the tool layer's models; fields are
looked up by name anywhere in the result, so a renamed wrapper does not break a sentence, and an
unknown tool still gets a readable summary of its scalar fields. Errors are sorted into refusals
(the gate said no: relayed politely, never with the rule) and failures (relayed with the reason)."""
from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from actors.model.offline.entities import Entities, clock_text
from actors.model.offline.reading import ToolCall

Writer = Callable[[Any, ToolCall, Entities], str]  # (result data, the call, entities) -> sentence

ACTIONS = {
    "create_work_order": "open the work order", "pm_create_work_order": "open the work order",
    "add_eta_note": "note your ETA", "update_work_order": "update the work order",
    "accept_dispatch": "confirm the dispatch", "handoff_to_other_vendor": "hand the work order off",
    "get_dispatch_details": "pull up that work order", "get_work_order_detail": "pull up that work order",
    "schedule_tour": "book the tour", "get_available_units": "check availability",
    "get_pricing_details": "look up pricing", "send_application_link": "send the application link",
    "respond_to_renewal": "record your renewal answer", "submit_rating": "record your rating",
    "escalate_to_human": "reach the team", "get_balance": "look up your balance",
    "get_lease_details": "look up your lease", "get_troubleshooting_steps": "find troubleshooting steps",
}
ERROR_PREFIX = re.compile(r"^(?:error|target)\s*:\s*", re.IGNORECASE)
REFUSAL = re.compile(r"^\s*(?:role:|scope\b|unknown-tool|refused|not\s+allowed|not\s+authori[sz]ed)", re.IGNORECASE)


def find(data: Any, *keys: str) -> Any:
    """The first non-empty value under any of these keys, searching nested objects depth-first."""
    if isinstance(data, dict):
        for key in keys:
            if data.get(key) not in (None, "", []):
                return data[key]
        for value in data.values():
            if (found := find(value, *keys)) is not None:
                return found
    elif isinstance(data, list):
        for value in data:
            if (found := find(value, *keys)) is not None:
                return found
    return None


def items(data: Any, *keys: str) -> list[dict[str, Any]]:
    found = data if isinstance(data, list) else find(data, *keys)
    return [i for i in found if isinstance(i, dict)] if isinstance(found, list) else []


def money(value: Any) -> str:
    try:
        amount = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f"${amount:,.0f}" if amount == int(amount) else f"${amount:,.2f}"


def day(value: Any, with_year: bool = False) -> str:
    try:
        d = date.fromisoformat(str(value)[:10])
    except ValueError:
        return str(value)
    return f"{d:%b} {d.day}, {d.year}" if with_year else f"{d:%b} {d.day}"


def moment(value: Any) -> str:
    try:
        at = datetime.fromisoformat(str(value))
    except ValueError:
        return str(value)
    return f"{at:%a}, {at:%b} {at.day} at {clock_text(at.time())}"


def _raw_reason(call: ToolCall) -> str:
    data = call.data()
    reason = str(find(data, "error", "reason", "message", "detail") or "") if isinstance(data, (dict, list)) else data
    return reason.strip().rstrip(".")


def is_refusal(call: ToolCall) -> bool:
    """The gate said no (role or scope): relay politely, never escalate, never leak the rule.
    The gate types its refusals (`refused`: role | scope | unknown-tool); the wording is read only
    for results that carry no type (voice adapters' own refusals)."""
    data = call.data()
    if isinstance(data, dict) and data.get("refused"):
        return True
    return bool(REFUSAL.match(_raw_reason(call)))


def error_reason(call: ToolCall) -> str:
    if is_refusal(call):
        return "that isn't something I can do for your account"
    return ERROR_PREFIX.sub("", _raw_reason(call))[:160]


def generic(data: Any) -> str:
    if isinstance(data, str):
        return data.strip()[:300]
    if message := find(data, "message"):
        return str(message)
    if not isinstance(data, dict):
        return ""
    facts = [f"{key.replace('_usd', '').replace('_', ' ')}: {money(v) if key.endswith('_usd') else v}"
             for key, v in data.items() if isinstance(v, (str, int, float)) and not key.endswith("_id")
             and not isinstance(v, bool)]
    facts += [f"{key.replace('_', ' ')}: {', '.join(map(str, v))}" for key, v in data.items()
              if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
    return ("Here's what I found — " + "; ".join(facts[:5]) + ".") if facts else ""
