"""Planning work_orders.csv and oncall.csv.

A work order's store id follows its number (`WO-5012` is `wo_5012`, as the tools look it up), so a
row names its number in `display_id` or takes the gateway's next one when it is first imported;
either way it keeps that number. An on-call row is one person at one level of a property's plan;
the plan itself is rebuilt from the rows once the file is planned (desk.portfolio.planner)."""
from __future__ import annotations

import re

import spine.keys as keys
from desk.portfolio.files import FileKind, ParsedRow
from desk.portfolio.known import Known, RowFailure, RowPlan, current
from desk.portfolio.plan_places import changed, updated_record
from desk.portfolio.record import ImportRecord
from desk.portfolio.rows import OnCallRow, WorkOrderRow
from spine.oncall import ACK_TIMEOUT_RANGE, REPEATS_RANGE
from spine.repo.items import work_order_board_items, work_order_item
from spine.work import WorkOrder, display_id_of, spell_work_order_id

_NUMBER = re.compile(r"^(?:WO[-_ #]?)?#?([0-9]{1,12})$", re.IGNORECASE)


def work_order_number(display_id: str) -> int:
    match = _NUMBER.match(display_id.strip())
    if match is None:
        raise RowFailure("display_id", f"{display_id!r} is not a work order number (WO-<n>)")
    return int(match.group(1))


def plan_work_order(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    """`internal_id` is the number's id (wo_<n>), or "" for a new row the gateway numbers on apply."""
    r = row.row
    assert isinstance(r, WorkOrderRow)
    property_id = known.resolve(FileKind.PROPERTIES, r.property, "property")
    unit_id = None
    if r.unit:
        unit_id, unit_property = known.property_of_unit(r.unit, "unit")
        if unit_property != r.property:
            raise RowFailure("unit", f"unit {r.unit!r} is in property {unit_property!r}, not {r.property!r}")
    vendor_id = known.resolve(FileKind.VENDORS, r.vendor, "vendor") if r.vendor else None
    reporter = known.resolve(FileKind.PEOPLE, r.reporter, "reporter") if r.reporter else None
    if rec is None and internal_id:
        held = known.stored.get((keys.work_order(internal_id), keys.ITEM))
        if held is not None:
            raise RowFailure("display_id", f"{r.display_id} is already another work order ({held.data['brief']!r})")
        known.hand_out(keys.work_order(internal_id), row.row.external_id,
                       f"{FileKind.WORK_ORDERS.filename}:{row.line}", "display_id", f"display_id {r.display_id}")
    fields = dict(id=internal_id or "wo_pending", display_id=display_id_of(internal_id) if internal_id else "WO-pending",
                  property_id=property_id, unit_id=unit_id, brief=r.brief, description=r.description, status=r.status,
                  priority=r.priority, assigned_vendor_id=vendor_id, created_by_person_id=reporter,
                  created_at=known.now, updated_at=known.now)
    by_col = {"property": "property_id", "unit": "unit_id", "brief": "brief", "description": "description",
              "status": "status", "priority": "priority", "vendor": "assigned_vendor_id",
              "reporter": "created_by_person_id"}
    wo: WorkOrder = updated_record(current(known, rec), WorkOrder, fields, changed(row, rec), by_col)
    if rec is not None:
        wo = wo.model_copy(update={"updated_at": known.now})
    plan = RowPlan(internal_id)
    plan.write(work_order_item(wo))
    for copy in work_order_board_items(wo, known.org_of_property(r.property, "property")[1]):
        plan.write(copy)  # the console's board; a copy naming an old status or priority is deleted
    plan.deletes = [k for k in (rec.item_keys if rec else []) if k[0].startswith(keys.WORK_ORDER_BOARD)
                    and k not in set(plan.owned)]
    return plan


def work_order_id(row: ParsedRow, rec: ImportRecord | None) -> str:
    """The row's store id: its record's, else its number's, else "" (numbered on apply)."""
    r = row.row
    assert isinstance(r, WorkOrderRow)
    number = spell_work_order_id(work_order_number(r.display_id)) if r.display_id else ""
    if rec is not None:
        if number and number != rec.internal_id:
            raise RowFailure("display_id", f"this work order is {display_id_of(rec.internal_id)}; its number cannot change")
        return rec.internal_id
    return number


def plan_oncall(row: ParsedRow, rec: ImportRecord | None, known: Known, internal_id: str) -> RowPlan:
    """No items of its own: the planner writes each property's plan from all its rows."""
    r = row.row
    assert isinstance(r, OnCallRow)
    property_id = known.resolve(FileKind.PROPERTIES, r.property, "property")
    person_id = known.resolve(FileKind.PEOPLE, r.person, "person")
    refused = known.oncall_refused.get((person_id, property_id))
    if refused is not None:  # issue 40 item 10: staff or vendor contacts of the property only
        raise RowFailure("person", refused)
    for column, value, (low, high) in (("ack_timeout_s", r.ack_timeout_s, ACK_TIMEOUT_RANGE),
                                       ("repeats", r.repeats, REPEATS_RANGE)):
        if value is not None and not low <= value <= high:
            raise RowFailure(column, f"{value} is outside {low}..{high}")
    settings = known.oncall_settings.setdefault(property_id, {})
    for column, value in (("ack_timeout_s", r.ack_timeout_s), ("repeats", r.repeats)):
        if value is None:
            continue
        if settings.get(column, (value, 0))[0] != value:
            raise RowFailure(column, f"{value} differs from line {settings[column][1]} for the same property")
        settings[column] = (value, row.line)
    return RowPlan(internal_id)
