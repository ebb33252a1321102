"""The outbox row ids of what the gateway starts (desk.outbound.queue.queue_outbound)."""
from __future__ import annotations


# -- what the gateway starts: the outbox row ids of desk.outbound.queue.queue_outbound -----------
def work_order_notice(work_order_id: str, person_id: str, slot: str) -> str:
    """A tenant's notice of a change to a work order; changes in one slot (a minute, or the night
    before the contact window) are one message."""
    return f"notify:{work_order_id}:{person_id}:{slot}"


def routine_batch(person_id: str, slot: str) -> str:
    """The new routine work orders one staff member is told of in one slot (15 minutes, or the night)."""
    return f"ROUTINEBATCH#{person_id}#{slot}"


def routine_batch_notice(person_id: str, slot: str) -> str:
    """The one message of a routine batch: a retry, or another work order of the slot, is the same row."""
    return f"routine:{person_id}:{slot}"


STEP_UP_TEXT_PREFIX = "stepup-"  # a verification code's text: sent by the call's gateway only, never swept


def step_up_text(token: str) -> str:
    return f"{STEP_UP_TEXT_PREFIX}{token}"


def dispatch_notice(dispatch_id: str, person_id: str) -> str:
    """A dispatch sent to one contact of the vendor."""
    return f"dispatch:{dispatch_id}:{person_id}"


def dispatch_staff_notice(dispatch_id: str, person_id: str, what: str) -> str:
    """What a manager is told of a dispatch: `declined`, or `overdue` (not accepted in time)."""
    return f"dispatch-{what}:{dispatch_id}:{person_id}"


def work_order_handoff(work_order_id: str, notes: int) -> str:
    """What `dispatch_staff_notice` is about when a vendor hands a work order back (one per note
    count: a second handoff of one work order is another message)."""
    return f"handoff_{work_order_id}_{notes}"


def page_step_notice(page_id: str, step: int, person_id: str, how: str) -> str:
    """A page's `sms` or `call` to one person of the level paged at `step` of the ladder."""
    return f"page-{page_id}-{step}-{person_id}-{how}"


def page_exhausted_notice(page_id: str, manager_id: str) -> str:
    """A manager told that nobody took the page."""
    return f"page-{page_id}-exhausted-{manager_id}"


def page_reporter_notice(page_id: str, what: str) -> str:
    """The reporter told that the page was `acknowledged` or `exhausted`."""
    return f"page-{page_id}-{what}-reporter"


def page_taken_notice(page_id: str, person_id: str) -> str:
    """The page's details, in writing, to whoever took it by a call's keypress."""
    return f"page-{page_id}-acknowledged-{person_id}"


def staff_message_notice(person_id: str, property_id: str, request_id: str) -> str:
    """What staff write to a person at a property from the console (one per request: a retried POST
    queues once)."""
    return f"staff-{person_id}-{property_id}-{request_id}"


def held_turn_notice(message_id: str) -> str:
    """Staff told of a message their taken-over conversation received."""
    return f"held-{message_id}"
