"""What a dispatch says: to the vendor's contacts, to the one who answers, to the property's
managers. Vendors and staff are written to in English (as pages are); only what happened is said."""
from __future__ import annotations

from spine.dispatch_record import Dispatch
from spine.notification import Notification, NotificationStatus
from spine.property import Property, Unit
from spine.work import WorkOrder


def _where(prop: Property, unit: Unit | None) -> str:
    address = f" ({prop.address})" if prop.address else ""
    return f"{prop.name}{address}" + (f", unit {unit.number}" if unit else "")


def dispatch_sms(wo: WorkOrder, prop: Property, unit: Unit | None) -> str:
    return (f"New dispatch from {_where(prop, unit)}: {wo.display_id}, {wo.brief}. Priority: {wo.priority}. "
            f"Reply YES to accept or NO to pass (YES {wo.display_id} / NO {wo.display_id} if you have several).")


def _told(notifications: list[Notification], told: str, later: str, untold: str) -> str:
    if any(n.status in (NotificationStatus.QUEUED, NotificationStatus.SENT) for n in notifications):
        return told
    if any(n.status == NotificationStatus.DEFERRED for n in notifications):
        return later
    return untold if notifications else ""


def accepted_reply(first_name: str, wo: WorkOrder, prop: Property, unit: Unit | None,
                   tenant: list[Notification]) -> str:
    told = _told(tenant, " The tenant has been notified.", " The tenant will be told at 9:00 am.",
                 " The tenant could not be messaged.")
    return (f"Thanks {first_name}, {wo.display_id} is yours: {_where(prop, unit)}, {wo.brief}.{told} "
            f"Text me your ETA when you have one.")


def declined_reply(wo: WorkOrder, staff: list[Notification]) -> str:
    told = _told(staff, " The office has been told.", " The office will be told at 9:00 am.",
                 " I'll leave it on the office's list.")
    return f"Thanks for letting us know. {wo.display_id} goes back to the office to find another vendor.{told}"


def already_answered(dispatch: Dispatch) -> str:
    return f"{dispatch.work_order_display_id} was already {dispatch.status}; nothing changed."


def which_one(dispatches: list[Dispatch], word: str) -> str:
    listed = ", ".join(d.work_order_display_id for d in dispatches)
    example = dispatches[0].work_order_display_id
    return f"You have several dispatches waiting ({listed}). Reply {word} and the work order, e.g. {word} {example}."


def staff_declined(vendor_name: str, who: str, wo: WorkOrder, prop: Property) -> str:
    return (f"{prop.name}: {vendor_name} ({who}) passed on {wo.display_id}, {wo.brief}. It is unassigned again; "
            f"please assign another vendor.")


def staff_overdue(vendor_name: str, wo: WorkOrder, prop: Property, minutes: int) -> str:
    return (f"{prop.name}: nobody at {vendor_name} has accepted {wo.display_id}, {wo.brief}, {minutes} min after "
            f"it was dispatched. You may want to call them or assign another vendor.")
