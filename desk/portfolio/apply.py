"""Writing a plan: the domain records first, in batches, then each row's ImportRecord (so a record
never names an item that is not written), then what no longer points where it did, then the
on-call plans. Work orders without a number take the gateway's next one, above every number the
import named."""
from __future__ import annotations

import spine.keys as keys
from desk.portfolio.planner import Plan
from spine.repo import Spine
from spine.repo.items import work_order_board_items, work_order_item
from spine.work import spell_display_id, spell_work_order_id


async def apply_plan(spine: Spine, plan: Plan) -> None:
    if plan.sequence_floor:
        await spine.ensure_sequence_at_least("work_order", plan.sequence_floor)
    items, records = list(plan.items), list(plan.records)
    for record, pending in plan.numbered_later:
        number = await spine.next_sequence("work_order")
        wo = pending.model_copy(update={"id": spell_work_order_id(number), "display_id": spell_display_id(number)})
        prop = await spine.get_property(wo.property_id)
        board = work_order_board_items(wo, prop.org_id if prop else None)
        items += [work_order_item(wo), *board]
        records.append(record.model_copy(update={
            "internal_id": wo.id, "item_keys": [(keys.work_order(wo.id), keys.ITEM), *((i.pk, i.sk) for i in board)],
            "cells": {**record.cells, "display_id": wo.display_id}}))
    await spine.put_items(items)
    await spine.put_items([r.item() for r in records])
    for pk, sk in plan.deletes:
        spine.reference.drop(pk)
        await spine.store.delete(pk, sk)
    for oncall in plan.oncall:
        await spine.put_oncall_plan(oncall)
    for property_id in plan.oncall_cleared:
        await spine.clear_oncall_plan(property_id)
