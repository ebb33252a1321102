"""What the staff console reads: tool runs, escalations and their queues, conversations, the
change feed and the reports' rollups."""
from __future__ import annotations


# -- tool runs, escalations --------------------------------------------------------------
def tool_run(interaction_id: str, tool_use_id: str) -> str:
    """A side-effecting tool call, idempotent on (interaction_id, tool_use_id)."""
    return f"IDEMP#{interaction_id}#{tool_use_id}"


def escalation(escalation_id: str) -> str:
    return f"ESCALATION#{escalation_id}"


def org_escalations(org_id: str) -> str:
    return f"ESCALATIONS#{org_id}"


# The staff console's queue: a copy of each escalation in its property's and its org's queue,
# sorted so that one descending query reads open first, then acknowledged, then resolved, each
# newest first; a status is a sort-key prefix. A status change moves the copies.
_QUEUE_RANK = {"open": "3", "acknowledged": "2", "resolved": "1"}


def property_escalation_queue(property_id: str) -> str:
    return f"ESCQ#{property_id}"


def org_escalation_queue(org_id: str) -> str:
    return f"ORGESCQ#{org_id}"


def escalation_queue_status(status: str) -> str:
    """The sort-key prefix of one status in a queue."""
    return f"{_QUEUE_RANK[status]}#"


def escalation_position(created_at: str, escalation_id: str) -> str:
    """The sort key in the org's escalations index (oldest first)."""
    return f"{created_at}#{escalation_id}"


def escalation_queue_position(status: str, created_at: str, escalation_id: str) -> str:
    return f"{escalation_queue_status(status)}{created_at}#{escalation_id}"


# -- conversations: a person's messages at one property, and its head ------------------------
# A conversation is a person's at one property: what staff of that property read and take over,
# never what the person said at another property or another org.
CONVERSATION = "CONVERSATION#"  # the sort-key prefix of a Person's conversation heads (with takeover state)


def conversation_head(property_id: str) -> str:
    """The sort key (under keys.person) of a person's conversation head at one property."""
    return f"{CONVERSATION}{property_id}"


def conversation_messages(person_id: str, property_id: str) -> str:
    """A person's messages at one property, one partition, sorted by message_position (oldest first)."""
    return f"CONVO#{person_id}#{property_id}"


def message_position(at: str, message_id: str) -> str:
    return f"{at}#{message_id}"


def property_conversations(property_id: str) -> str:
    """The index of a property's conversation heads, sorted by conversation_position."""
    return f"PROPCONVOS#{property_id}"


def conversation_position(last_at: str, person_id: str) -> str:
    return f"{last_at}#{person_id}"


# -- the console's change feed: what changed, per scope (a property's, an org's), per second --------
# A partition per (scope, UTC second) sorted by change_position, so a live page's poll reads the
# few seconds since its last one, and a stream resumed by its Last-Event-ID reads from there on.
def change_feed(scope: str, second: str) -> str:
    """`second` is `YYYYmmddTHHMMSS` (UTC)."""
    return f"FEED#{scope}#{second}"


def change_position(at: str, change_id: str) -> str:
    return f"{at}#{change_id}"


# -- the reports' rollups: a counter per property, local day and key ---------------------------
def rollups(property_id: str) -> str:
    """A property's daily counters, sorted by rollup_position: a month is the prefix `2026-12-`."""
    return f"ROLLUP#{property_id}"


def rollup_position(day: str, key: str) -> str:
    return f"{day}#{key}"
