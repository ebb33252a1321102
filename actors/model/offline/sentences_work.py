"""Sentences for work-order results: opened, updated, details, lists, hand-offs, escalations."""
from __future__ import annotations

from typing import Any

from actors.model.offline.entities import Entities
from actors.model.offline.reading import ToolCall
from actors.model.offline.results import Writer, find, generic, items


def work_order_created(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id", "display_id") or "a work order"
    brief = find(data, "brief") or call.input.get("brief") or "request"
    unit = find(data, "unit")
    priority = find(data, "priority") or call.input.get("priority")
    text = f"I've opened {wo} for the {brief}" + (f" in unit {unit}" if unit and str(unit) not in brief else "")
    text += f" and marked it {priority}." if priority in ("urgent", "emergency") else "."
    vendor, eta = find(data, "vendor"), find(data, "eta")
    if vendor:
        return text + f" {vendor} is assigned" + (f", ETA {eta}." if eta else ".")
    return text + " The maintenance team has it now."


def troubleshooting(data: Any, call: ToolCall, e: Entities) -> str:
    steps, stop_if = find(data, "steps") or [], find(data, "stop_and_report_if")
    urgent = e.problem is not None and e.problem.priority != "normal"
    if urgent and stop_if:
        return f"Meanwhile, if {stop_if}"
    first = f"Meanwhile, you can try this: {steps[0]}" if steps else ""
    return (first + (f" If {stop_if}" if stop_if else "")).strip()


def escalated(data: Any, call: ToolCall, e: Entities) -> str:
    if call.input.get("urgency") == "emergency":
        return "I've alerted the on-call team."
    return "I've passed this to the team, and someone will follow up."


def work_order_updated(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id", "display_id") or call.input.get("work_order_id")
    if call.input.get("eta") and call.input.get("status") is None:
        text = f"I've noted your ETA on {wo}."
    elif call.input.get("status") == "completed":
        text = f"I've marked {wo} as completed."
    else:
        text = f"I've updated {wo}."
    return text + (" The tenant has been notified." if find(data, "tenant_notified", "notified") else "")


def work_order_detail(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id", "display_id") or call.input.get("work_order_id")
    brief, unit, status = find(data, "brief"), find(data, "unit"), find(data, "status")
    text = f"{wo} — {brief or 'work order'}"
    text += f", unit {unit}" if unit and f"unit {unit}" not in str(brief) else ""
    text += f" ({str(status).replace('_', ' ')})." if status else "."
    description = find(data, "description")
    if description and len(str(description)) <= 160:
        text += f" {description}"
    notes = items(data, "notes")
    if notes and notes[-1].get("text"):
        text += f" Latest note: {notes[-1]['text']}"
    if eta := find(data, "eta"):
        text += f" ETA: {eta}."
    return text


def open_work_orders(data: Any, call: ToolCall, e: Entities) -> str:
    wos = items(data, "work_orders", "open_work_orders", "results")
    if not wos:
        return "There are no open work orders right now." if isinstance(data, (list, dict)) else generic(data)
    listed = [f"{find(w, 'work_order_id', 'display_id')} ({find(w, 'brief')}, "
              f"{str(find(w, 'status')).replace('_', ' ')})" for w in wos[:5]]
    return f"{len(wos)} open: " + "; ".join(listed) + (f"; and {len(wos) - 5} more." if len(wos) > 5 else ".")


def vendor_assigned(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id") or call.input.get("work_order_id")
    vendor = find(data, "vendor") or call.input.get("vendor_id")
    return f"Done — {wo} is assigned to {vendor}" + (f" ({str(s).replace('_', ' ')})." if (s := find(data, "status"))
                                                     else ".")


def dispatch_accepted(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id") or call.input.get("work_order_id")
    eta = find(data, "eta") or call.input.get("eta")
    return f"You're confirmed on {wo}" + (f", ETA {eta}." if eta else ".")


def work_order_closed(data: Any, call: ToolCall, e: Entities) -> str:
    wo = find(data, "work_order_id") or call.input.get("work_order_id")
    return f"Done — {wo} is closed."


WORK_WRITERS: dict[str, Writer] = {
    "create_work_order": work_order_created, "pm_create_work_order": work_order_created,
    "get_troubleshooting_steps": troubleshooting, "escalate_to_human": escalated,
    "add_eta_note": work_order_updated, "update_work_order": work_order_updated,
    "get_dispatch_details": work_order_detail, "get_work_order_detail": work_order_detail,
    "pm_list_open_work_orders": open_work_orders, "pm_assign_vendor": vendor_assigned,
    "pm_close_work_order": work_order_closed, "accept_dispatch": dispatch_accepted,
}
