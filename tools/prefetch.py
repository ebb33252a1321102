"""prefetch_candidates(): read-only tool calls the conversation shape says Clara will likely need.

They run speculatively, in parallel with the model's first turn, under the same gate. Only
read-only tools from the caller's own catalog are ever proposed; the gate still decides each.
"""
from __future__ import annotations

import re

from spine.context import PersonContext
from spine.intent.emergency import detect_emergency
from spine.intent.mentions import bedrooms, work_order_ids
from spine.toolspec import ToolInvocation
from tools.caller import Caller
from tools.catalog import catalog_names
from tools.matrix import TOOL_ROLE_MATRIX

MAX_CANDIDATES = 6
MAX_ACTIVE_WORK_ORDERS = 3

AVAILABILITY = re.compile(
    r"\b(available|availability|vacanc(?:y|ies)|openings?|for rent|move[- ]in|studios?"
    r"|\d\s*(?:br|bd|bed(?:room)?s?)|(?:one|two|three|four)[- ]bed(?:room)?s?)\b", re.IGNORECASE)
MAINTENANCE = re.compile(
    r"\b(leak\w*|broken|break\w*|not working|isn'?t working|won'?t (?:turn|start|drain|flush|stop)|clog\w*"
    r"|toilet|sink|faucet|drip\w*|dishwasher|fridge|refrigerator|freezer|disposal|stove|oven|heater|furnace"
    r"|no heat|no hot water|a/?c|washer|dryer|mold|outlet|breaker)\b", re.IGNORECASE)


def wanted_lookups(message: str, context: PersonContext | None) -> list[ToolInvocation]:
    """Everything the message and eager context suggest, before filtering by the caller's catalog."""
    wanted: list[ToolInvocation] = []
    named = work_order_ids(message)
    active = [w.display_id for w in (context.active.active_work_orders if context else [])]
    for wo in named + [w for w in active[:MAX_ACTIVE_WORK_ORDERS] if w not in named]:
        wanted.append(ToolInvocation(name="get_work_order_detail", input={"work_order_id": wo}))
        wanted.append(ToolInvocation(name="get_dispatch_details", input={"work_order_id": wo}))
    if AVAILABILITY.search(message):
        count = bedrooms(message)
        wanted.append(ToolInvocation(name="get_available_units",
                                     input={"bedrooms": count} if count is not None else {}))
    # An emergency is escalated, not troubleshot: the appliance list would go unused (spine.intent.emergency
    # is the vocabulary the safety net and the offline model use, so all three agree on the message).
    if MAINTENANCE.search(message) and detect_emergency(message) is None:
        wanted.append(ToolInvocation(name="get_unit_appliances", input={}))
    return wanted


def prefetch_candidates(message: str, context: PersonContext | None, caller: Caller) -> list[ToolInvocation]:
    return offered_lookups(wanted_lookups(message or "", context), caller)


def offered_lookups(wanted: list[ToolInvocation], caller: Caller) -> list[ToolInvocation]:
    """The wanted lookups this caller's catalog offers, read-only, once each, at most MAX_CANDIDATES."""
    offered = set(catalog_names(caller))
    seen: set[tuple[str, str]] = set()
    chosen: list[ToolInvocation] = []
    for inv in wanted:
        key = (inv.name, repr(sorted(inv.input.items())))
        policy = TOOL_ROLE_MATRIX.get(inv.name)
        if inv.name not in offered or policy is None or not policy.read_only or key in seen:
            continue
        seen.add(key)
        chosen.append(inv)
    return chosen[:MAX_CANDIDATES]
