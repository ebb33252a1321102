"""Reaching a person: vendor dispatches, on-call plans and pages, the office and call transfers."""
from __future__ import annotations


# -- vendor dispatches --------------------------------------------------------------------
def dispatch(dispatch_id: str) -> str:
    return f"DISPATCH#{dispatch_id}"


def dispatch_position(sent_at: str, dispatch_id: str) -> str:
    return f"{sent_at}#{dispatch_id}"


def dispatches_with_status(status: str) -> str:
    """The dispatches index by status, oldest sent first: `pending` is what a YES may accept and
    what the reminder looks at."""
    return f"DISPATCHES#{status}"


# -- on-call plans and pages -------------------------------------------------------------
def oncall_plan(property_id: str) -> str:
    return f"ONCALL#{property_id}"


def page(page_id: str) -> str:
    return f"PAGE#{page_id}"


def pages_with_status(status: str) -> str:
    """The pages index by status, sorted by next_due: the `paging` partition is the scheduler's work."""
    return f"PAGES#{status}"


def page_due(next_due_iso: str, page_id: str) -> str:
    return f"{next_due_iso}#{page_id}"


def pages_held(person_id: str) -> str:
    """The pages a Person was paged by (sort key: the page id): what an `ACK` from them may name."""
    return f"PAGESHELD#{person_id}"


def escalation_page(escalation_id: str) -> str:
    """The page an escalation is part of (what the staff console shows beside it)."""
    return f"ESCPAGE#{escalation_id}"


def interaction_page(interaction_id: str) -> str:
    """The page an interaction started (a work order and an escalation in one turn page once)."""
    return f"PAGEOF#{interaction_id}"


def page_step_marker(page_id: str, pass_number: int, level: int) -> str:
    """One ladder step taken (its oncall/paged event emitted), whoever drove it."""
    return f"page-step#{page_id}#{pass_number}#{level}"


def outbox_send_marker(outbox_id: str) -> str:
    """An outbox row handed to its provider: whoever marks it first sends it, once."""
    return f"outbox-send#{outbox_id}"


def outbox_resend_marker(outbox_id: str) -> str:
    """An interrupted send that Twilio never got, sent again: whoever marks it first, once."""
    return f"outbox-resend#{outbox_id}"


# -- a caller reaches a person (the office, call transfers) ---------------------------------
def office(property_id: str) -> str:
    return f"OFFICE#{property_id}"


def transfer(transfer_id: str) -> str:
    return f"TRANSFER#{transfer_id}"


def call_summary(interaction_id: str) -> str:
    """The post-call analysis's summary of a call."""
    return f"CALLSUMMARY#{interaction_id}"


def call_transfers(interaction_id: str) -> str:
    """The transfers of one call, sort key the transfer id (the console lists them with the call)."""
    return f"CALLTRANSFERS#{interaction_id}"
