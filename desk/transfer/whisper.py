"""What the person a transfer rings hears before the caller is put through: who is calling, their
unit or prospect status, and why, in a sentence; then "press 1". Read from the store, never from
what the caller or the model claimed about who they are."""
from __future__ import annotations

from spine.identity import PersonRoleType
from spine.records import last4
from spine.repo import Spine
from spine.transfer import Transfer

PROMPT = "Press 1 to take the call, or any other key to pass it on."
PASSED = "Thanks, passing it on. Goodbye."


async def whisper_text(spine: Spine, transfer: Transfer, property_name: str) -> str:
    who = await _who(spine, transfer)
    urgent = {"emergency": "Emergency. ", "urgent": "Urgent. "}.get(transfer.urgency, "")
    return f"{urgent}Clara, transferring a call to {property_name}: {who}, about {transfer.reason.rstrip('.')}."


async def _who(spine: Spine, transfer: Transfer) -> str:
    person = await spine.get_person(transfer.caller_person_id) if transfer.caller_person_id else None
    if person is None:
        return f"a caller we don't know, from a number ending {last4(transfer.caller_number) or 'unknown'}"
    what = await _standing(spine, transfer.caller_person_id or "", transfer.property_id)
    return f"{person.display_name}, {what}" if what else person.display_name


async def _standing(spine: Spine, person_id: str, property_id: str) -> str:
    """Their unit or prospect status at this property (what the person answering needs first)."""
    units: list[str] = []
    other: list[str] = []
    for role in await spine.roles_of(person_id):
        if not role.active:
            continue
        if role.role_type == PersonRoleType.TENANT and role.scope.unit_id:
            unit = await spine.get_unit(role.scope.unit_id)
            if unit is not None and unit.property_id == property_id:
                units.append(unit.number)
        elif role.role_type == PersonRoleType.PROSPECT:
            prospect = await spine.get_prospect(person_id, property_id)
            other.append(f"a prospect ({prospect.stage})" if prospect else "a prospect")
        elif role.role_type == PersonRoleType.VENDOR_CONTACT:
            other.append("a vendor")
        else:
            other.append(f"staff ({role.role_type.replace('_', ' ')})")
    said = [f"tenant of unit {', '.join(sorted(set(units)))}"] if units else []
    return ", ".join(said + sorted(set(other)))
