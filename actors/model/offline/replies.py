"""The offline policy's words: a templated sentence per tool result, an opening and a closing per
intent, and the direct answers that need no tool (wrong number, status from context, clarifying
questions). Tool results are read by key, tolerant of shape, because they are JSON of models the
tool layer owns."""
from __future__ import annotations

from typing import Any

from actors.model.offline import results as res
from actors.model.offline.sentences_place import PLACE_WRITERS
from actors.model.offline.sentences_work import WORK_WRITERS
from actors.model.offline.entities import Entities
from actors.model.offline.policy import Plan, addressed_name
from actors.model.offline.reading import Reading, ToolCall

SAFETY = {
    "gas": ("Please leave the unit now, don't flip switches or use flames, and call 911 and the gas company "
            "from outside."),
    "fire": "Please get out now and call 911.",
    "flood": "If you can do it safely, shut off the water valve and keep away from outlets and appliances.",
    "electrical": "Stay clear of it; if it's safe, switch off the breaker. Call 911 if you see smoke or flames.",
    "threat": "If you are in danger, call 911 right away.",
}
INTRO = "I'm Clara, a property management AI"
WRITERS = {**WORK_WRITERS, **PLACE_WRITERS}
CLOSINGS = {
    "availability": "Would you like to schedule a tour? Just reply with a day and time that works.",
    "wo_details": "What's the latest on your end?",
}


def direct(plan: Plan, r: Reading, e: Entities) -> str:
    """A reply when the plan needs no tool (or none it wanted was offered)."""
    text = _direct(plan, r, e)
    return text[:1].upper() + text[1:]


def _direct(plan: Plan, r: Reading, e: Entities) -> str:
    hi = _hi(r)
    if plan.intent == "wrong_number":
        who = addressed_name(e.text)
        return f"Looks like you have the wrong number — {INTRO}, not {who}. No worries, have a good one!"
    if plan.intent == "emergency":
        safety = SAFETY[e.emergency or "threat"]
        return f"{safety} I couldn't alert staff from this line, so please call the property too."
    if plan.intent == "wo_status_context":
        return hi + status_from_context(r, plan.wo)
    if plan.intent == "vendor_eta":
        mine = ", ".join(str(w.get("display_id")) for w in r.context.work_orders if r.context.assigned_to_me(w))
        listed = f" I have you on {mine}." if mine else ""
        return f"{hi}thanks for the heads-up. Which work order is this for?{listed}"
    if plan.intent in ("vendor_handoff", "vendor_done"):
        return f"{hi}which work order is this about? Please include its number, like WO-7."
    if plan.intent == "tour_needs_time":
        return f"{hi}happy to set up a tour! What day and time work for you?"
    if plan.intent == "maintenance":
        return f"{hi}sorry to hear that. I can't open a work order from this line; please contact the leasing office."
    if plan.intent == "wo_details":
        return f"{hi}I couldn't look up {plan.wo} from here. Please contact the office for details."
    if plan.intent == "human":
        return f"{hi}I'll pass that along — please call the leasing office to reach a person directly."
    if "other" in r.context.roles or not r.context.roles:
        return (f"Hi — {INTRO}. If you were trying to reach someone else, you may have the wrong number; "
                "otherwise, how can I help?")
    if plan.intent == "greeting":
        return f"{hi or 'Hi, '}this is Clara. How can I help you today?"
    return f"{hi}I want to make sure I get this right — could you tell me a bit more about what you need?"


def status_from_context(r: Reading, display_id: str | None) -> str:
    """personContext.active is authoritative: answer from it, no tool call."""
    wos = [r.context.work_order(display_id)] if display_id else r.context.work_orders
    wos = [w for w in wos if w]
    if not wos:
        return "I don't see any open work orders for you right now. Want me to open one?"
    lines = [f"{w.get('display_id')} ({_brief(w)}) is {_status(w.get('status'))}" for w in wos[:3]]
    prefix = "" if len(lines) == 1 else f"You have {len(wos)} open work orders: "
    return prefix + "; ".join(lines) + "."


def compose(plan: Plan, r: Reading, e: Entities) -> str:
    """The reply after the tool results are in."""
    done = [c for c in r.calls if not c.is_error]
    failed = [c for c in r.calls if c.is_error]
    escalated = any(c.name == "escalate_to_human" and not c.is_error for c in r.calls)
    parts = [_opening(plan, r, e)]
    # An escalation made because an action failed is reported by the failure line itself.
    quiet = {"escalate_to_human"} if failed and plan.intent not in ("emergency", "human") else set()
    parts += [s for c in done if c.name not in quiet and (s := sentence(c, plan, e))]
    parts += [failure(c, escalated) for c in failed if c.name != "save_prospect"]
    closing = CLOSINGS.get(plan.intent)
    if closing and not failed and not any(p.endswith("?") for p in parts):
        parts.append(closing)
    text = " ".join(p for p in parts if p).strip()
    return text or f"{_hi(r)}all set."


def _opening(plan: Plan, r: Reading, e: Entities) -> str:
    name = r.context.first_name
    if plan.intent == "emergency":
        return SAFETY[e.emergency or "threat"]
    if plan.intent == "vendor_eta" and e.eta:
        return f"Got it{' ' + name if name else ''}, see you {e.eta[1]}."
    if plan.intent == "wo_details":
        return ""
    return f"Thanks {name}." if name and plan.intent in ("vendor_done", "vendor_accept", "maintenance") else ""


def sentence(call: ToolCall, plan: Plan, e: Entities) -> str:
    data = call.data()
    writer = WRITERS.get(call.name)
    if writer is not None:
        return writer(data, call, e)
    return res.generic(data)


def failure(call: ToolCall, escalated: bool) -> str:
    action = res.ACTIONS.get(call.name, f"complete that ({call.name.replace('_', ' ')})")
    reason = res.error_reason(call)
    said = f"I wasn't able to {action}" + (f": {reason}" if reason else "") + "."
    if escalated:
        return said + " I've flagged this for the team so someone follows up."
    return said


def _hi(r: Reading) -> str:
    return f"Hi {r.context.first_name}, " if r.context.first_name else ""


def _brief(wo: dict[str, Any]) -> str:
    return str(wo.get("brief", "")).replace(" (you are the assigned vendor)", "")


def _status(status: Any) -> str:
    return str(status or "open").replace("_", " ")

