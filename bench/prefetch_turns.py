"""The turns of bench/prefetch.py and what they need: first messages whose tool call is one of
the lookups tools.prefetch guesses, their senders in the store, and the model's answers to them.

A turn is a tenant asking about their work order (get_work_order_detail) or an appliance
(get_unit_appliances), or a vendor's contact asking for a dispatch (get_dispatch_details); each
its own sender, so every turn is a first message (an Opening built, no history).
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from desk.portfolio.demo import _DISHWASHER, _FRIDGE, YALE, seed
from spine.identity import (
    Claim,
    ClaimKind,
    OccupancyKind,
    Person,
    PersonRole,
    PersonRoleSource,
    PersonRoleType,
    RoleScope,
)
from spine.property import Unit, Vendor
from spine.repo import Spine
from spine.store.dynamodb import DynamoStore
from spine.work import WorkOrder, WorkOrderStatus

LAZY_TOOLS = ("get_work_order_detail", "get_unit_appliances", "get_dispatch_details")


@dataclass(frozen=True)
class Turn:
    """One first message and the lazy call the model answers it with."""

    phone: str
    body: str
    tool: str
    input: dict[str, Any]


def plan(count: int) -> list[Turn]:
    """`count` first messages, in rotation: tenant work order, tenant appliance, vendor dispatch."""
    turns = []
    for i in range(count):
        wo = f"WO-{900 + i}"
        kind = i % 3
        if kind == 0:
            turns.append(Turn(_phone(i), f"Hi, any update on {wo}? Nobody has come by yet.",
                              "get_work_order_detail", {"work_order_id": wo}))
        elif kind == 1:
            turns.append(Turn(_phone(i), "My dishwasher is not working again, what model is it?",
                              "get_unit_appliances", {}))
        else:
            turns.append(Turn(_phone(i), f"On my way to {wo} this afternoon, send me the details please",
                              "get_dispatch_details", {"work_order_id": wo}))
    return turns


def _phone(i: int) -> str:
    return f"+1206556{i:04d}"


async def seed_table(table: str, endpoint_url: str, turns: list[Turn]) -> None:
    """The demo data plus each turn's sender, written to moto directly (the delay is for the
    turns, not the setup)."""
    spine = Spine(DynamoStore(table=table, endpoint_url=endpoint_url, create_missing=True))
    try:
        await seed(spine)
        for i, turn in enumerate(turns):
            await _add_sender(spine, i, turn)
    finally:
        await spine.store.close()


async def _add_sender(spine: Spine, i: int, turn: Turn) -> None:
    """A tenant in a unit of their own with an open work order there (WO-900 + i), or a vendor's
    contact with that work order assigned to their vendor."""
    pid, unit, vendor_id = f"p_bench_{i:03d}", f"u_bench_{i:03d}", f"v_bench_{i:03d}"
    vendor = turn.tool == "get_dispatch_details"
    await spine.put_unit(Unit(id=unit, property_id=YALE, number=f"9{i:02d}", bedrooms=1, monthly_rent_usd=1900,
                              appliances=[_FRIDGE, _DISHWASHER]))
    await spine.put_person(Person(id=pid, display_name=f"Bench {i}", claims=[Claim(kind=ClaimKind.PHONE,
                                                                                   value=turn.phone)]))
    if vendor:
        await spine.put_vendor(Vendor(id=vendor_id, name=f"Bench Plumbing {i}", trade="plumbing",
                                      services_property_ids=[YALE]))
        role, scope = PersonRoleType.VENDOR_CONTACT, RoleScope(vendor_id=vendor_id)
    else:
        role, scope = PersonRoleType.TENANT, RoleScope(org_id="org_propflow", property_id=YALE, unit_id=unit,
                                                      occupancy=OccupancyKind.PRIMARY)
    await spine.put_role(PersonRole(id=f"r_{pid}", person_id=pid, role_type=role, source=PersonRoleSource.PMS_SYNC,
                                    scope=scope))
    await spine.put_work_order(WorkOrder(
        id=f"wo_{900 + i}", display_id=f"WO-{900 + i}", property_id=YALE, unit_id=unit,
        status=WorkOrderStatus.IN_PROGRESS, brief=f"dishwasher not draining, unit 9{i:02d}",
        description="Dishwasher leaves standing water after every cycle.",
        assigned_vendor_id=vendor_id if vendor else "v_inhouse"))


def model_answers(turns: list[Turn]) -> Any:
    """The stand-in's answer to a request: the turn's lazy call to its first message, text to
    anything else (a tool result, a message of no turn)."""
    from tests.support.anthropic_server import text, tool_use

    calls = {t.body: t for t in turns}

    def answer(body: dict[str, Any]) -> Any:
        content = body["messages"][-1]["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        said = " ".join(b.get("text", "") for b in blocks if b.get("type") == "text").strip()
        turn = calls.get(said) if not any(b.get("type") == "tool_result" for b in blocks) else None
        if turn is None:
            return text("Thanks, here is what I found: the details are on file and we are on it today.")
        return tool_use(turn.tool, turn.input, id=f"toolu_{uuid.uuid4().hex[:20]}")

    return answer
